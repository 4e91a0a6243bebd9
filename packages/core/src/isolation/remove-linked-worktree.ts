import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ForeignWorkspaceError } from '../errors.js';
import { git } from '../git/git.js';
import type { WorktreeEntry } from '../git/list-worktrees.js';
import { isAncestor, resolveCommit } from '../git/rev-parse.js';
import { workingTreeStatus } from '../git/working-tree-status.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { parseWorkspaceLockReason } from './workspace-lock-reason.js';
import { WorktreeDirtyError } from './worktree-dirty-error.js';

/**
 * Remove a linked worktree that an earlier snodo created as a task workspace (`git worktree add --lock`),
 * with the rules it was made under: refused when it has another branch checked out or a lock someone else
 * placed; refused without `force` when it has uncommitted changes or a detached HEAD with commits of its
 * own. Returns `true` once the registration and directory are gone.
 */
export async function removeLinkedWorktree(options: {
  repositoryRoot: string;
  entry: WorktreeEntry;
  taskRef: string;
  force: boolean;
  foreign: (reason: string) => ForeignWorkspaceError;
}): Promise<true> {
  const { entry, taskRef, repositoryRoot } = options;
  if (entry.ref !== undefined && entry.ref !== taskRef)
    throw options.foreign(`it has ${entry.ref} checked out, not ${taskRef}`);
  if (entry.locked && parseWorkspaceLockReason(entry.lockReason) === undefined) {
    throw options.foreign(`it is locked by someone else (${entry.lockReason ?? 'no reason given'})`);
  }
  const present = existsSync(entry.path);
  if (present && !options.force) await assertNothingWouldBeLost(entry, taskRef, repositoryRoot);
  try {
    if (entry.locked) await git(['worktree', 'unlock', entry.path], { cwd: repositoryRoot });
    const forceFlag = options.force || (present && existsSync(path.join(entry.path, '.gitmodules')));
    await git(['worktree', 'remove', ...(forceFlag ? ['--force'] : []), entry.path], {
      cwd: repositoryRoot,
    });
    return true;
  } catch (error) {
    throw new IsolationFailedError({
      operation: 'remove',
      message: `Could not remove the worktree ${entry.path}: ${(error as Error).message}`,
      cause: error,
    });
  }
}

async function assertNothingWouldBeLost(
  entry: WorktreeEntry,
  taskRef: string,
  repositoryRoot: string,
): Promise<void> {
  const changes = await workingTreeStatus(entry.path);
  if (changes.length > 0) {
    throw new WorktreeDirtyError({
      worktreePath: entry.path,
      changedPaths: changes.map((change) => change.path),
      purpose: 'remove',
    });
  }
  // A detached HEAD with commits of its own would be lost with the worktree.
  const tip = await resolveCommit(repositoryRoot, taskRef);
  const head = entry.head;
  if (head !== undefined && tip !== undefined && !(await isAncestor(repositoryRoot, head, tip))) {
    throw new IsolationFailedError({
      operation: 'remove',
      message: `${entry.path} has commits (HEAD ${head.slice(0, 12)}) that are not on ${taskRef}; keep them on a branch, or pass --force to discard them.`,
    });
  }
}
