import { createHash } from 'node:crypto';
import type { CoderV1Result } from '@snodo/coder-sdk';
import { diffPatch } from '../git/index.js';
import type { AttemptRecord } from '../jobs/index.js';
import { JobRun } from './job-run.js';
import type { ResolvedCoder } from './stage-resolve.js';

/**
 * The hash of an attempt's diff for `coder-end` (`diff_sha256`): of `git diff -M --binary headBefore..commit`
 * in the workspace. A read of the workspace only, so the run starts it beside the task branch's import.
 */
export async function attemptDiffHash(options: {
  workspace: string;
  headBefore: string;
  commit: string | undefined;
}): Promise<string | undefined> {
  if (options.commit === undefined) return undefined;
  const patch = await diffPatch({ cwd: options.workspace, from: options.headBefore, to: options.commit });
  return createHash('sha256').update(patch).digest('hex');
}

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
    /** `attemptDiffHash` of this attempt, when the caller started it already. */
    diffHash?: Promise<string | undefined>;
  },
): Promise<'changed' | 'no-changes'> {
  const { coder, attempt, checked, result } = options;
  const status = checked.commit ? 'changed' : 'no-changes';
  const durationMs = Math.round(options.durationMs);
  if (result.usage) {
    run.recordUsage('coder', {
      ...result.usage,
      model: result.usage.model ?? coder.models.coder.model,
    });
  }
  const diffHash = await (options.diffHash ??
    attemptDiffHash({
      workspace: options.workspace,
      headBefore: options.headBefore,
      commit: checked.commit,
    }));
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
  run.updateStateSoon((state) => ({ ...state, attempts: [...state.attempts, record] }));
  return status;
}
