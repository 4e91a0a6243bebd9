import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { compareAndSwapReference } from '../git/compare-and-swap-reference.js';
import { fetchCommit } from '../git/fetch-commit.js';
import { listWorktrees } from '../git/list-worktrees.js';
import { findGitCommonDirectory, findRepositoryRoot } from '../git/repository-paths.js';
import { resolveCommit } from '../git/rev-parse.js';
import { assertWorkspaceIntact } from './assert-workspace-intact.js';
import { canonicalPath } from './path-inside.js';
import { WorkspaceBranchMismatchError } from './workspace-branch-mismatch-error.js';

/** Options of `importTaskBranch`. */
export interface ImportTaskBranchOptions {
  /** A directory inside the user's repository. */
  readonly repositoryRoot: string;
  /** The task workspace (a `repository`-layout workspace made by `createTaskWorkspace`). */
  readonly worktreePath: string;
  /** The task branch (short name), the same in the workspace and in the user's repository. */
  readonly branch: string;
  /** The commit snodo read from the workspace's branch after the attempt: the one the gates judge. */
  readonly expectedCommit: string;
}

/** What `importTaskBranch` did. */
export interface ImportTaskBranchResult {
  /** The user's task branch now points here (always `expectedCommit`). */
  readonly commit: string;
  /** Where the user's task branch was before; absent when it did not exist. */
  readonly previousCommit?: string;
  /** `false` when the user's task branch was already at `expectedCommit` (nothing moved). */
  readonly moved: boolean;
}

/** `true` when `worktreePath` is registered as a linked worktree of the repository (the legacy layout). */
async function isLinkedWorktree(repositoryRoot: string, worktreePath: string): Promise<boolean> {
  if (!existsSync(path.join(worktreePath, '.git')) || !statSync(path.join(worktreePath, '.git')).isFile()) {
    return false;
  }
  return (await listWorktrees(repositoryRoot)).some(
    (worktree) => !worktree.isMain && canonicalPath(worktree.path) === worktreePath,
  );
}

/**
 * Bring a task workspace's branch into the user's repository after a coder attempt (or before landing a
 * kept job the user may have committed in): check the workspace's shape (`assertWorkspaceIntact`), check
 * its branch is at `expectedCommit`, fetch exactly that commit into the user's repository (hardened git,
 * no tags, no refs, no `FETCH_HEAD`, fsck of every object), then compare-and-swap the user's
 * `refs/heads/<branch>` from the value read just before to `expectedCommit`. Every mismatch is a
 * `WorkspaceBranchMismatchError` and moves nothing. For a linked worktree of an earlier snodo (which shares
 * the branch) it only confirms the branch is at `expectedCommit`.
 */
export async function importTaskBranch(options: ImportTaskBranchOptions): Promise<ImportTaskBranchResult> {
  const repositoryRoot = await findRepositoryRoot(options.repositoryRoot);
  const gitCommonDirectory = canonicalPath(await findGitCommonDirectory(repositoryRoot));
  const worktreePath = canonicalPath(options.worktreePath);
  const taskRef = `refs/heads/${options.branch}`;
  const mismatch = (
    kind: WorkspaceBranchMismatchError['mismatch'],
    actualCommit: string | undefined,
  ): WorkspaceBranchMismatchError =>
    new WorkspaceBranchMismatchError({
      worktreePath,
      branch: options.branch,
      expectedCommit: options.expectedCommit,
      actualCommit,
      mismatch: kind,
    });

  if (await isLinkedWorktree(repositoryRoot, worktreePath)) {
    // A linked worktree of an earlier snodo shares the branch: there is nothing to bring over, only a
    // value to confirm.
    const tip = await resolveCommit(repositoryRoot, taskRef);
    if (tip !== options.expectedCommit) throw mismatch('workspace-moved', tip);
    return { commit: tip, previousCommit: tip, moved: false };
  }
  assertWorkspaceIntact({ worktreePath, branch: options.branch, gitCommonDirectory });
  const workspaceTip = await resolveCommit(worktreePath, taskRef);
  if (workspaceTip !== options.expectedCommit) throw mismatch('workspace-moved', workspaceTip);

  const previousCommit = await resolveCommit(repositoryRoot, taskRef);
  if (previousCommit === options.expectedCommit) {
    return { commit: options.expectedCommit, previousCommit, moved: false };
  }
  await fetchCommit({ cwd: repositoryRoot, source: worktreePath, commit: options.expectedCommit });
  // git refuses to point a ref at a commit it does not have, so the swap itself proves the fetch brought
  // it; only a failed swap is looked into, to say so.
  const swapped = await compareAndSwapReference({
    cwd: repositoryRoot,
    reference: taskRef,
    next: options.expectedCommit,
    expected: previousCommit ?? '',
    reflogMessage: `snodo: import ${options.branch} from its workspace`,
  }).catch(async (error: unknown) => {
    const fetched = await resolveCommit(repositoryRoot, options.expectedCommit);
    if (fetched !== options.expectedCommit) throw mismatch('not-fetched', fetched);
    throw error;
  });
  if (!swapped) throw mismatch('repository-moved', await resolveCommit(repositoryRoot, taskRef));
  return {
    commit: options.expectedCommit,
    ...(previousCommit === undefined ? {} : { previousCommit }),
    moved: true,
  };
}
