import { JobActionRefusedError } from '../errors.js';
import { type DiffNameStatusEntry, diffNameStatus, diffPatch, resolveCommit } from '../git/index.js';
import { workspaceBranchTip } from '../isolation/index.js';
import { readJobState } from '../jobs/index.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

/** A job's change: the diff from its base commit to the tip of its task branch. */
export interface JobDiff {
  readonly baseCommit: string;
  readonly headCommit: string;
  readonly files: readonly DiffNameStatusEntry[];
  readonly patch: string;
}

/**
 * The diff `base..branch` of a job: the branch as its kept workspace repository has it, else as the
 * user's repository has it (so it works after the workspace is gone).
 */
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
  // A kept workspace repository may hold commits the user made there after the job stopped: show those,
  // since `snodo task merge` would import and land them. It sees every commit of the repository too.
  const workspaceTip =
    isolation.mode === 'repository'
      ? await workspaceBranchTip({ worktreePath: isolation.worktreePath, branch: isolation.branch })
      : undefined;
  const cwd = workspaceTip === undefined ? scope.repositoryRoot : isolation.worktreePath;
  const head =
    workspaceTip ??
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
    files: await diffNameStatus({ cwd, from, to: head }),
    patch: await diffPatch({ cwd, from, to: head }),
  };
}
