import { existsSync } from 'node:fs';
import { isSameProcessAlive } from '@snodo/foundation';
import { JobActionRefusedError } from '../errors.js';
import { workingTreeStatus } from '../git/index.js';
import { removeTaskWorkspace, WorktreeDirtyError } from '../isolation/index.js';
import { type JobState, readJobState } from '../jobs/index.js';
import { recordJobDecision } from './record-job-decision.js';
import { openTaskScope, type TaskCommandOptions, type TaskScope } from './task-scope.js';

/** What abandoning a job removed. */
export interface AbandonResult {
  readonly jobId: string;
  readonly worktreeRemoved: boolean;
  readonly branchDeleted: boolean;
  readonly state: JobState;
}

/**
 * Removes a kept job's workspace (a workspace repository, or a linked worktree of an earlier snodo) and its
 * branch; shared by `abandon` and `prune`. Commits made in the workspace and never imported go with it:
 * discarding the job's work is what abandoning means.
 */
export async function discardJobWorkspace(
  scope: TaskScope,
  state: JobState,
  force: boolean,
): Promise<{ worktreeRemoved: boolean; branchDeleted: boolean }> {
  const isolation = state.isolation;
  if (isolation === undefined || isolation.mode === 'none')
    return { worktreeRemoved: false, branchDeleted: false };
  if (existsSync(isolation.worktreePath) && !force) {
    const dirty = await workingTreeStatus(isolation.worktreePath);
    if (dirty.length > 0) {
      throw new WorktreeDirtyError({
        worktreePath: isolation.worktreePath,
        changedPaths: dirty.map((entry) => entry.path),
        purpose: 'remove',
      });
    }
  }
  // The branch goes even when unmerged: discarding it is what abandoning means. `force` here only
  // overrides the unmerged-branch rule, never the dirty-worktree check above.
  const removed = await removeTaskWorkspace({
    repositoryRoot: scope.repositoryRoot,
    worktreesDirectory: scope.worktreesDirectory,
    worktreePath: isolation.worktreePath,
    branch: isolation.branch,
    baseRef: isolation.baseRef,
    force: true,
  });
  return { worktreeRemoved: removed.worktreeRemoved, branchDeleted: removed.branchDeleted };
}

/**
 * Discards a job that is not running: its worktree and task branch are removed (a worktree with
 * uncommitted changes only with `force`), the job ends `abandoned`, and the decision is audited. Never
 * touches a worktree or branch snodo did not create.
 */
export async function abandonJob(
  options: TaskCommandOptions & { jobId: string; force?: boolean },
): Promise<AbandonResult> {
  const scope = await openTaskScope(options);
  const state = readJobState(scope.repositoryRoot, options.jobId);
  if (state.status === 'running' && isSameProcessAlive(state.process.pid, state.process.startTimeMs)) {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'abandon',
      reason: `it is still running (pid ${state.process.pid})`,
      hint: 'Stop that run first (Ctrl-C), then abandon it.',
    });
  }
  const removed = await discardJobWorkspace(scope, state, options.force === true);
  const at = new Date().toISOString();
  const updated = await recordJobDecision(scope, {
    jobId: options.jobId,
    type: 'job-abandon',
    data: {
      by: scope.actor,
      at,
      worktree_removed: removed.worktreeRemoved,
      branch_deleted: removed.branchDeleted,
    },
    mutate: (current) => ({
      ...current,
      status: current.status === 'done' ? 'done' : 'abandoned',
      decisions: [...current.decisions, { action: 'abandon', by: scope.actor, at }],
    }),
  });
  return { jobId: options.jobId, ...removed, state: updated };
}
