import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { listWorktrees } from '../git/list-worktrees.js';
import { findGitCommonDirectory, findRepositoryRoot } from '../git/repository-paths.js';
import { resolveCommit } from '../git/rev-parse.js';
import { assertWorkspaceIntact } from './assert-workspace-intact.js';
import type { TaskWorkspaceLayout } from './create-task-workspace.js';
import { canonicalPath, isPathInside } from './path-inside.js';
import { projectDirectoryName } from './project-directory-name.js';
import { taskBranchPrefix } from './task-branch-name.js';
import { parseWorkspaceLockReason } from './workspace-lock-reason.js';
import { readWorkspaceMarker } from './workspace-marker.js';

/** One workspace of the repository, as reconciliation and `snodo task list | prune` see it. */
export interface TaskWorkspaceEntry {
  /** Absolute path of the workspace. */
  readonly path: string;
  /** `repository` for snodo's workspace repositories; `worktree` for every linked worktree (the main one included). */
  readonly layout: TaskWorkspaceLayout;
  /** The task branch's short name (a worktree's checked-out branch; absent when detached). */
  readonly branch?: string;
  /** The commit checked out. */
  readonly head?: string;
  /** The main working tree (never snodo's). */
  readonly isMain: boolean;
  /** A linked worktree locked with `git worktree lock`, or a workspace repository (its marker is its lock). */
  readonly locked: boolean;
  /** A worktree lock's reason; snodo's read `snodo job <id> pid <pid>`. */
  readonly lockReason?: string;
  /** `true` only when snodo created it: a `snodo/` branch, a path under the worktrees directory, and (for a repository) a marker naming this repository. */
  readonly isSnodo: boolean;
  /** For snodo's workspaces: the job id. */
  readonly jobId?: string;
  /** The lock is snodo's (so snodo may remove it). */
  readonly lockedBySnodo: boolean;
  /** The snodo process that created or locked it, when known. */
  readonly lockPid?: number;
  /** That process's start time, when recorded, so a reused pid does not count as live. */
  readonly lockProcessStartTimeMs?: number;
  /** The directory no longer exists (a registered worktree whose directory vanished). */
  readonly missing: boolean;
}

/**
 * Every workspace of the repository, each marked as snodo's or not: the linked worktrees from `git
 * worktree list --porcelain` (the main checkout, the user's own, and task worktrees of earlier snodo
 * versions), then snodo's workspace repositories found by their markers under
 * `<worktreesDirectory>/<project>/`. Reconciliation compares it with job records; `snodo task list |
 * prune` show and clean snodo's.
 */
export async function listTaskWorkspaces(options: {
  repositoryRoot: string;
  worktreesDirectory: string;
}): Promise<TaskWorkspaceEntry[]> {
  const repositoryRoot = await findRepositoryRoot(options.repositoryRoot);
  const worktreesDirectory = canonicalPath(options.worktreesDirectory);
  const worktrees: TaskWorkspaceEntry[] = (await listWorktrees(repositoryRoot))
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
        layout: 'worktree' as const,
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
  const registered = new Set(worktrees.map((worktree) => canonicalPath(worktree.path)));
  const commonDirectory = await findGitCommonDirectory(repositoryRoot);
  const projectDirectory = path.join(worktreesDirectory, projectDirectoryName(commonDirectory));
  const repositories: TaskWorkspaceEntry[] = [];
  for (const name of readdirSorted(projectDirectory)) {
    const workspacePath = path.join(projectDirectory, name);
    if (registered.has(workspacePath)) continue;
    const marker = readWorkspaceMarker(workspacePath);
    if (marker === undefined || marker.gitCommonDirectory !== canonicalPath(commonDirectory)) continue;
    if (!marker.branch.startsWith(taskBranchPrefix)) continue;
    // git runs in the workspace only when it still has the shape snodo gave it.
    const head = isIntact(workspacePath) ? await resolveCommit(workspacePath, 'HEAD') : undefined;
    repositories.push({
      path: workspacePath,
      layout: 'repository',
      branch: marker.branch,
      ...(head === undefined ? {} : { head }),
      isMain: false,
      locked: true,
      isSnodo: true,
      jobId: marker.jobId,
      lockedBySnodo: true,
      lockPid: marker.pid,
      ...(marker.processStartTimeMs === undefined
        ? {}
        : { lockProcessStartTimeMs: marker.processStartTimeMs }),
      missing: false,
    });
  }
  return [...worktrees, ...repositories];
}

function isIntact(worktreePath: string): boolean {
  try {
    assertWorkspaceIntact({ worktreePath });
    return true;
  } catch {
    return false;
  }
}

function readdirSorted(directory: string): string[] {
  try {
    return readdirSync(directory).sort();
  } catch {
    return [];
  }
}
