import { realpathSync } from 'node:fs';
import { CoderUnavailableError } from '../errors/coder-unavailable-error.js';
import { findHidingMount } from '../sandbox/wrap-in-sandbox.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';

/** The coder a check is about, for its error. */
interface SandboxSubject {
  readonly id: string;
  readonly displayName: string;
  readonly binary: string;
}

/**
 * Refuses, before anything is written, a CLI the sandbox would hide (installed under the user's HOME,
 * which the sandbox replaces): bubblewrap would only say "No such file or directory".
 */
export function assertVisibleInSandbox(
  subject: SandboxSubject,
  request: CoderV1Request,
  binaryPath: string,
): void {
  if (request.sandbox === undefined) return;
  let real = binaryPath;
  try {
    real = realpathSync(binaryPath);
  } catch {
    // Checked as given.
  }
  for (const candidate of new Set([binaryPath, real])) {
    const hiding = findHidingMount(request.sandbox, candidate);
    if (hiding === undefined) continue;
    throw new CoderUnavailableError({
      coderId: subject.id,
      displayName: subject.displayName,
      reason: `its executable ${candidate} lies under ${hiding}, which the sandbox hides from the coder`,
      fix:
        `install ${subject.binary} outside that directory (e.g. a system-wide \`npm install -g\`), point ` +
        `coders.${subject.id}.binary at such a copy, or run with \`execution.sandbox: off\``,
    });
  }
}

/**
 * The job's private HOME (`request.homeDirectory`) and, inside a sandbox, its private TMPDIR, so a CLI
 * never falls back to the user's own. `buildEnv` may still set either for a reason of its own.
 */
export function privateDirectories(request: CoderV1Request): Record<string, string> {
  const tmp = request.sandbox?.environment.TMPDIR;
  return {
    ...(request.homeDirectory === undefined ? {} : { HOME: request.homeDirectory }),
    ...(tmp === undefined ? {} : { TMPDIR: tmp }),
  };
}
