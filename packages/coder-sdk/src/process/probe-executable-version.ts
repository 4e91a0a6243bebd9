import os from 'node:os';
import { findVersionInText } from '../version/version-range.js';

/** What a version probe found. */
export interface ExecutableVersionProbe {
  /** The version printed, when the probe succeeded and printed one. */
  readonly version: string | undefined;
  /** Why the probe failed, when it did (did not start, exited non-zero, timed out), with its last lines. */
  readonly problem: string | undefined;
}

/** How to run a version probe. */
export interface ProbeExecutableVersionOptions {
  /** The complete environment; nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** The limit; the probe is SIGKILLed after it. Default 10000 ms. */
  readonly timeoutMs?: number;
  /** Reads the version from stdout and stderr joined. Default: the first `1.2.3`-like text. */
  readonly parseVersion?: (text: string) => string | undefined;
}

/**
 * Runs `<executable> <args>` (`--version`) with stdin closed, exactly `options.env` and a short limit, and
 * reads a version from its output. Never throws: a failure is reported in `problem`.
 *
 * It runs on the host, never in the sandbox: it starts the user's installed CLI, not code the coder wrote,
 * and it runs before any worktree exists.
 */
export async function probeExecutableVersion(
  executable: string,
  args: readonly string[],
  options: ProbeExecutableVersionOptions,
): Promise<ExecutableVersionProbe> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  try {
    // Loaded on first use: importing the SDK (and so @snodo/core) should not pay for execa.
    const { execa } = await import('execa');
    const result = await execa(executable, [...args], {
      // NOTE: outside any worktree, so a CLI that writes files on start cannot dirty one.
      cwd: os.tmpdir(),
      env: { ...options.env },
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: 1024 * 1024,
      windowsHide: true,
    });
    const output = `${String(result.stdout ?? '')}\n${String(result.stderr ?? '')}`;
    if (result.failed) {
      const tail = output.trim().split('\n').slice(-3).join(' / ');
      const how = result.timedOut
        ? `did not answer within ${Math.round(timeoutMs / 1000)}s`
        : result.exitCode === undefined
          ? `could not start (${result.code ?? result.shortMessage ?? 'unknown error'})`
          : `exited with code ${result.exitCode}`;
      return { version: undefined, problem: tail === '' ? how : `${how}: ${tail}` };
    }
    return { version: (options.parseVersion ?? findVersionInText)(output), problem: undefined };
  } catch (error) {
    return { version: undefined, problem: error instanceof Error ? error.message : String(error) };
  }
}
