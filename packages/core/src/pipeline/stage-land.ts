import { existsSync } from 'node:fs';
import { CHECKPOINT_TRAILER_KEY } from '@snodo/audit';
import type { DiffContext } from '../gates/index.js';
import {
  type LandingStrategy,
  type LandTaskBranchResult,
  landTaskBranch,
  removeTaskWorkspace,
} from '../isolation/index.js';
import { readJobState } from '../jobs/index.js';
import { refuseForeignBaseCommits } from './foreign-base-refusal.js';
import type { JobRun } from './job-run.js';
import type { RunWorkspace } from './task-workspace.js';

/** How landing ended, in the words `state.json` and the result use. */
export interface LandingRecord {
  readonly strategy: LandingStrategy;
  readonly outcome: LandTaskBranchResult['outcome'];
  readonly message: string;
  readonly mergeCommit?: string;
  readonly previousBaseCommit?: string;
  readonly conflictedFiles?: readonly string[];
  readonly overlappingPaths?: readonly string[];
  readonly worktreeRemoved: boolean;
}

function trailerValue(trailerLine: string): string {
  return trailerLine.slice(trailerLine.indexOf(':') + 1).trim();
}

/**
 * Lands the task branch on the base (SPEC §6): the intent is audited and flushed to disk first, a signed
 * checkpoint goes into the merge commit's trailers, the base moves by compare-and-swap without ever
 * overwriting the user's uncommitted work, and the worktree (and a merged branch) is removed on success.
 * A conflict or a deferred merge keeps everything for `snodo task merge`.
 */
export async function landJob(
  run: JobRun,
  options: {
    workspace: RunWorkspace;
    strategy: LandingStrategy;
    message: string;
    /** The post-execute gates' diff (`baseCommit..task`), when this run just read it. */
    diff?: Pick<DiffContext, 'baseCommit' | 'headCommit' | 'files'>;
  },
): Promise<LandingRecord> {
  const { workspace, strategy } = options;
  const { repositoryRoot, worktreesDirectory } = run.context;
  if (!workspace.isolated) {
    await run.audit('merge-end', { strategy: 'in-place', outcome: 'merged', branch: workspace.branch });
    return {
      strategy,
      outcome: 'merged',
      message: `The change was committed on ${workspace.branch} in your checkout (--no-isolation).`,
      worktreeRemoved: false,
    };
  }
  await run.audit('merge-start', {
    strategy,
    base_ref: workspace.baseRef,
    base_commit: workspace.baseCommit,
    branch: workspace.branch,
  });
  await run.auditTrail.sync();
  // The merge commit's trailer carries this checkpoint; refs/snodo/audit gets the job-end one.
  const { trailer } = await run.auditTrail.checkpoint({ ref: false });
  const recorded = readJobState(repositoryRoot, run.jobId).isolation;
  const since = recorded?.acceptedBaseCommit ?? workspace.baseCommit;
  const landed = await landTaskBranch({
    repositoryRoot,
    baseRef: workspace.baseRef,
    baseCommit: workspace.baseCommit,
    branch: workspace.branch,
    // A branch kept by `merge_strategy: none` has no worktree any more; `snodo task merge` lands it alone.
    ...(existsSync(workspace.worktreePath) ? { worktreePath: workspace.worktreePath } : {}),
    strategy,
    jobId: run.jobId,
    message: options.message,
    ...(options.diff === undefined
      ? {}
      : {
          knownChangedPaths: {
            from: options.diff.baseCommit,
            to: options.diff.headCommit,
            // Both sides of a rename: what `git diff --no-renames` of the same commits lists.
            paths: options.diff.files.flatMap((file) =>
              file.previousPath === undefined ? [file.path] : [file.path, file.previousPath],
            ),
          },
        }),
    onLockWait: (wait) =>
      run.note('info', `Waiting for the lock on ${wait.purpose}: held by ${wait.holderText}.`),
    trailers: { 'Snodo-Job': run.jobId, [CHECKPOINT_TRAILER_KEY]: trailerValue(trailer) },
    checkBase: (current) =>
      refuseForeignBaseCommits({
        repositoryRoot,
        jobId: run.jobId,
        baseRef: workspace.baseRef,
        since,
        current,
        ledgerOffset: recorded?.landingLedgerOffset ?? 0,
      }),
  });
  if (landed.outcome === 'base_moved') {
    await run.updateState((state) =>
      state.isolation === undefined
        ? state
        : { ...state, isolation: { ...state.isolation, pendingBaseCommit: landed.previousBaseCommit } },
    );
  }
  await run.audit(
    landed.outcome === 'merged' || landed.outcome === 'branch_kept' ? 'merge-end' : 'job-retain',
    {
      strategy,
      base_ref: workspace.baseRef,
      foreign_commits: landed.foreignCommits
        ? landed.foreignCommits.map((commit) => commit.commit)
        : undefined,
      outcome: landed.outcome,
      merge_commit: landed.mergeCommit,
      previous_base_commit: landed.previousBaseCommit,
      fast_forward: landed.fastForward,
      conflicted_files: landed.conflictedFiles ? [...landed.conflictedFiles] : undefined,
      overlapping_paths: landed.overlappingPaths ? [...landed.overlappingPaths] : undefined,
    },
  );
  let worktreeRemoved = false;
  if (landed.outcome === 'merged' || landed.outcome === 'branch_kept') {
    try {
      const removed = await removeTaskWorkspace({
        repositoryRoot,
        worktreesDirectory,
        worktreePath: workspace.worktreePath,
        branch: workspace.branch,
        baseRef: workspace.baseRef,
        worktrees: landed.worktrees,
      });
      worktreeRemoved = removed.worktreeRemoved || !existsSync(workspace.worktreePath);
    } catch (error) {
      // Landing succeeded; a worktree that cannot be removed is reported, not turned into a failure.
      run.note(
        'warn',
        `Could not remove ${workspace.worktreePath}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return {
    strategy,
    outcome: landed.outcome,
    message: landed.message,
    worktreeRemoved,
    ...(landed.mergeCommit ? { mergeCommit: landed.mergeCommit } : {}),
    ...(landed.previousBaseCommit ? { previousBaseCommit: landed.previousBaseCommit } : {}),
    ...(landed.conflictedFiles ? { conflictedFiles: landed.conflictedFiles } : {}),
    ...(landed.overlappingPaths ? { overlappingPaths: landed.overlappingPaths } : {}),
  };
}
