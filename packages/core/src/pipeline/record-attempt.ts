import { createHash } from 'node:crypto';
import type { CoderV1Result } from '@snodo/coder-sdk';
import { diffPatch } from '../git/index.js';
import type { AttemptRecord } from '../jobs/index.js';
import { JobRun } from './job-run.js';
import type { ResolvedCoder } from './stage-resolve.js';

/**
 * Records one attempt that passed core's checks: the coder's usage, `coder-end` in the audit log (with the
 * diff's hash, the CLI's version and argv), and the attempt in `state.json`.
 */
export async function recordAttempt(
  run: JobRun,
  options: {
    coder: ResolvedCoder;
    attempt: number;
    workspace: string;
    headBefore: string;
    checked: { commit?: string; changedFiles: readonly string[] };
    result: CoderV1Result;
    durationMs: number;
  },
): Promise<'changed' | 'no-changes'> {
  const { coder, attempt, checked, result } = options;
  const status = checked.commit ? 'changed' : 'no-changes';
  const durationMs = Math.round(options.durationMs);
  if (result.usage) {
    await run.recordUsage('coder', {
      ...result.usage,
      model: result.usage.model ?? coder.models.coder.model,
    });
  }
  const diffHash = checked.commit
    ? createHash('sha256')
        .update(await diffPatch({ cwd: options.workspace, from: options.headBefore, to: checked.commit }))
        .digest('hex')
    : undefined;
  await run.audit('coder-end', {
    attempt,
    status,
    commit: checked.commit,
    files: checked.changedFiles,
    diff_sha256: diffHash,
    cli_version: result.cliVersion ?? coder.availability.version,
    argv: result.argv ? [...result.argv] : undefined,
    exit_code: result.exitCode,
    duration_ms: durationMs,
    usage: JobRun.auditUsage(result.usage),
  });
  const record: AttemptRecord = {
    attempt,
    status,
    changedFiles: [...checked.changedFiles],
    durationMs,
    ...(checked.commit ? { commit: checked.commit } : {}),
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    ...(result.cliVersion ? { cliVersion: result.cliVersion } : {}),
  };
  await run.updateState((state) => ({ ...state, attempts: [...state.attempts, record] }));
  return status;
}
