import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from '../git/git.js';
import { listWorktrees } from '../git/list-worktrees.js';
import { findRepositoryRoot } from '../git/repository-paths.js';
import { isAncestor, resolveCommit } from '../git/rev-parse.js';
import { workingTreeStatus } from '../git/working-tree-status.js';
import { isBranchMerged } from './branch-merged.js';
import { ForeignWorkspaceError } from './foreign-workspace-error.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { canonicalPath, isPathInside } from './path-inside.js';
import { taskBranchPrefix } from './task-branch-name.js';
import { parseWorkspaceLockReason } from './workspace-lock-reason.js';
import { WorktreeDirtyError } from './worktree-dirty-error.js';

/** Options of `removeTaskWorkspace`. */
export interface RemoveTaskWorkspaceOptions {
  /** A directory inside the user's repository. */
  readonly repositoryRoot: string;
  /** snodo's worktrees directory; the worktree must lie under it. */
  readonly worktreesDirectory: string;
  /** The task worktree to remove. */
  readonly worktreePath: string;
  /** The task branch; must start with `snodo/`. */
  readonly branch: string;
  /** The base the branch was meant for; the branch is deleted only when merged into it. Without it, merged into any non-snodo branch. */
  readonly baseRef?: string | undefined;
  /** Discard uncommitted changes and delete an unmerged branch. Never overrides a foreign lock or ownership. */
  readonly force?: boolean;
}

/** What `removeTaskWorkspace` did. */
export interface RemoveTaskWorkspaceResult {
  /** The worktree (registration and directory) is gone. */
  readonly worktreeRemoved: boolean;
  /** The task branch was deleted. */
  readonly branchDeleted: boolean;
  /** Why the branch was kept: not merged (use force), already gone, or checked out in another worktree. */
  readonly branchKeptReason?: 'not-merged' | 'missing' | 'checked-out';
  /** Why the worktree was kept: a leftover directory git does not know, removed only with force. */
  readonly worktreeKeptReason?: 'unregistered-directory';
}

/**
 * Remove a task worktree and, when merged (or `force`), its branch. Refuses with `ForeignWorkspaceError`
 * anything snodo did not create (branch outside `snodo/`, path outside the worktrees directory, a lock
 * placed by someone else); refuses with `WorktreeDirtyError` a worktree with uncommitted changes unless
 * `force`. The caller (abandon, prune, a successful run) decides that the job is no longer live.
 */
export async function removeTaskWorkspace(
  options: RemoveTaskWorkspaceOptions,
): Promise<RemoveTaskWorkspaceResult> {
  const repositoryRoot = await findRepositoryRoot(options.repositoryRoot);
  const worktreePath = canonicalPath(options.worktreePath);
  const taskRef = `refs/heads/${options.branch}`;
  const foreign = (reason: string): ForeignWorkspaceError =>
    new ForeignWorkspaceError({ worktreePath, branch: options.branch, reason });
  if (!options.branch.startsWith(taskBranchPrefix))
    throw foreign(`the branch is not under ${taskBranchPrefix}`);
  const worktreesDirectory = canonicalPath(options.worktreesDirectory);
  if (!isPathInside(worktreesDirectory, worktreePath) || worktreePath === worktreesDirectory) {
    throw foreign(`the path is not under snodo's worktrees directory ${worktreesDirectory}`);
  }

  const worktrees = await listWorktrees(repositoryRoot);
  const entry = worktrees.find(
    (worktree) => !worktree.isMain && canonicalPath(worktree.path) === worktreePath,
  );
  let worktreeRemoved = false;
  let worktreeKeptReason: RemoveTaskWorkspaceResult['worktreeKeptReason'];
  if (entry !== undefined) {
    if (entry.ref !== undefined && entry.ref !== taskRef)
      throw foreign(`it has ${entry.ref} checked out, not ${taskRef}`);
    if (entry.locked && parseWorkspaceLockReason(entry.lockReason) === undefined) {
      throw foreign(`it is locked by someone else (${entry.lockReason ?? 'no reason given'})`);
    }
    const present = existsSync(entry.path);
    if (present && !options.force)
      await assertNothingWouldBeLost(entry.path, entry.head, taskRef, repositoryRoot);
    try {
      if (entry.locked) await git(['worktree', 'unlock', entry.path], { cwd: repositoryRoot });
      const forceFlag = options.force || (present && existsSync(path.join(entry.path, '.gitmodules')));
      await git(['worktree', 'remove', ...(forceFlag ? ['--force'] : []), entry.path], {
        cwd: repositoryRoot,
      });
      worktreeRemoved = true;
    } catch (error) {
      throw new IsolationFailedError({
        operation: 'remove',
        message: `Could not remove the worktree ${entry.path}: ${(error as Error).message}`,
        cause: error,
      });
    }
  } else if (existsSync(worktreePath)) {
    // A directory git does not know (left by a crash during creation): only force deletes it.
    if (options.force) {
      await fs.rm(worktreePath, { recursive: true, force: true });
      worktreeRemoved = true;
    } else {
      worktreeKeptReason = 'unregistered-directory';
    }
  } else {
    worktreeRemoved = true;
  }

  const branch = await removeBranch(repositoryRoot, taskRef, options);
  return {
    worktreeRemoved,
    ...branch,
    ...(worktreeKeptReason === undefined ? {} : { worktreeKeptReason }),
  };
}

async function assertNothingWouldBeLost(
  worktreePath: string,
  head: string | undefined,
  taskRef: string,
  repositoryRoot: string,
): Promise<void> {
  const changes = await workingTreeStatus(worktreePath);
  if (changes.length > 0) {
    throw new WorktreeDirtyError({
      worktreePath,
      changedPaths: changes.map((change) => change.path),
      purpose: 'remove',
    });
  }
  // A detached HEAD with commits of its own would be lost with the worktree.
  const tip = await resolveCommit(repositoryRoot, taskRef);
  if (head !== undefined && tip !== undefined && !(await isAncestor(repositoryRoot, head, tip))) {
    throw new IsolationFailedError({
      operation: 'remove',
      message: `${worktreePath} has commits (HEAD ${head.slice(0, 12)}) that are not on ${taskRef}; keep them on a branch, or pass --force to discard them.`,
    });
  }
}

async function removeBranch(
  repositoryRoot: string,
  taskRef: string,
  options: RemoveTaskWorkspaceOptions,
): Promise<Pick<RemoveTaskWorkspaceResult, 'branchDeleted' | 'branchKeptReason'>> {
  const tip = await resolveCommit(repositoryRoot, taskRef);
  if (tip === undefined) return { branchDeleted: false, branchKeptReason: 'missing' };
  const checkedOut = (await listWorktrees(repositoryRoot)).some((worktree) => worktree.ref === taskRef);
  if (checkedOut) return { branchDeleted: false, branchKeptReason: 'checked-out' };
  const baseRef =
    options.baseRef === undefined || options.baseRef.startsWith('refs/')
      ? options.baseRef
      : `refs/heads/${options.baseRef}`;
  if (!options.force && !(await isBranchMerged({ cwd: repositoryRoot, tip, baseRef }))) {
    return { branchDeleted: false, branchKeptReason: 'not-merged' };
  }
  // Delete exactly the tip we judged: if the branch moved meanwhile, git refuses.
  await git(['update-ref', '-d', taskRef, tip], { cwd: repositoryRoot });
  return { branchDeleted: true };
}
