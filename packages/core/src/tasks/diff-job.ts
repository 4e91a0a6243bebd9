import { type DiffNameStatusEntry, diffNameStatus, diffPatch, resolveCommit } from '../git/index.js';
import { readJobState } from '../jobs/index.js';
import { JobActionRefusedError } from './job-action-refused-error.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

/** A job's change: the diff from its base commit to the tip of its task branch. */
export interface JobDiff {
  readonly baseCommit: string;
  readonly headCommit: string;
  readonly files: readonly DiffNameStatusEntry[];
  readonly patch: string;
}

/** The diff `base..branch` of a job, read from the repository (works after the worktree is gone). */
export async function diffJob(options: TaskCommandOptions & { jobId: string }): Promise<JobDiff> {
  const scope = await openTaskScope(options);
  const state = readJobState(scope.repositoryRoot, options.jobId);
  const isolation = state.isolation;
  if (!isolation) {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'diff',
      reason: 'it never got a workspace',
    });
  }
  const head =
    (await resolveCommit(scope.repositoryRoot, `refs/heads/${isolation.branch}`)) ??
    state.landing?.mergeCommit ??
    state.attempts.at(-1)?.commit;
  if (!head) {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'diff',
      reason: `its branch ${isolation.branch} no longer exists and no commit was recorded`,
    });
  }
  const from = isolation.baseCommit;
  return {
    baseCommit: from,
    headCommit: head,
    files: await diffNameStatus({ cwd: scope.repositoryRoot, from, to: head }),
    patch: await diffPatch({ cwd: scope.repositoryRoot, from, to: head }),
  };
}
