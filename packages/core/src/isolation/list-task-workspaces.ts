import { existsSync } from 'node:fs';
import path from 'node:path';
import { listWorktrees } from '../git/list-worktrees.js';
import { findRepositoryRoot } from '../git/repository-paths.js';
import { canonicalPath, isPathInside } from './path-inside.js';
import { taskBranchPrefix } from './task-branch-name.js';
import { parseWorkspaceLockReason } from './workspace-lock-reason.js';

/** One worktree of the repository, as reconciliation and `snodo task list | prune` see it. */
export interface TaskWorkspaceEntry {
  /** Absolute path of the worktree. */
  readonly path: string;
  /** The checked-out branch's short name; absent when detached. */
  readonly branch?: string;
  /** The commit checked out. */
  readonly head?: string;
  /** The main working tree (never snodo's). */
  readonly isMain: boolean;
  /** Locked with `git worktree lock`. */
  readonly locked: boolean;
  /** The lock's reason; snodo's read `snodo job <id> pid <pid>`. */
  readonly lockReason?: string;
  /** `true` only when snodo created it: a `snodo/` branch and a path under the worktrees directory. */
  readonly isSnodo: boolean;
  /** For snodo's worktrees: the job id (the directory name). */
  readonly jobId?: string;
  /** The lock is snodo's (so snodo may unlock it). */
  readonly lockedBySnodo: boolean;
  /** The process that locked it, when the lock is snodo's. */
  readonly lockPid?: number;
  /** The directory no longer exists (registered but missing: a crash, a cleaner, removable media). */
  readonly missing: boolean;
}

/**
 * Every worktree of the repository, each marked as snodo's or not, from `git worktree list --porcelain`.
 * Reconciliation compares it with job records; `snodo task list | prune` show and clean snodo's.
 */
export async function listTaskWorkspaces(options: {
  repositoryRoot: string;
  worktreesDirectory: string;
}): Promise<TaskWorkspaceEntry[]> {
  const repositoryRoot = await findRepositoryRoot(options.repositoryRoot);
  const worktreesDirectory = canonicalPath(options.worktreesDirectory);
  return (await listWorktrees(repositoryRoot))
    .filter((worktree) => !worktree.bare)
    .map((worktree) => {
      const branch = worktree.ref?.startsWith('refs/heads/')
        ? worktree.ref.slice('refs/heads/'.length)
        : undefined;
      const isSnodo =
        !worktree.isMain &&
        branch !== undefined &&
        branch.startsWith(taskBranchPrefix) &&
        isPathInside(worktreesDirectory, worktree.path) &&
        canonicalPath(worktree.path) !== worktreesDirectory;
      const lock = parseWorkspaceLockReason(worktree.lockReason);
      return {
        path: worktree.path,
        ...(branch === undefined ? {} : { branch }),
        ...(worktree.head === undefined ? {} : { head: worktree.head }),
        isMain: worktree.isMain,
        locked: worktree.locked,
        ...(worktree.lockReason === undefined ? {} : { lockReason: worktree.lockReason }),
        isSnodo,
        ...(isSnodo ? { jobId: path.basename(worktree.path) } : {}),
        lockedBySnodo: worktree.locked && lock !== undefined,
        ...(lock?.pid === undefined ? {} : { lockPid: lock.pid }),
        missing: !existsSync(worktree.path),
      };
    });
}
