import { promises as fs, lstatSync } from 'node:fs';
import path from 'node:path';
import { isSameProcessAlive } from '@snodo/foundation';
import { ForeignWorkspaceError } from '../errors.js';
import { git } from '../git/git.js';
import { workingTreeStatus } from '../git/working-tree-status.js';
import { assertWorkspaceIntact } from './assert-workspace-intact.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { listTaskWorkspaces, type TaskWorkspaceEntry } from './list-task-workspaces.js';
import { removeTaskWorkspace } from './remove-task-workspace.js';
import { WorkspaceTamperedError } from './workspace-tampered-error.js';
import { WorktreeDirtyError } from './worktree-dirty-error.js';

/** Options of `pruneTaskWorkspaces`. */
export interface PruneTaskWorkspacesOptions {
  /** A directory inside the user's repository. */
  readonly repositoryRoot: string;
  /** snodo's worktrees directory; only worktrees under it are considered. */
  readonly worktreesDirectory: string;
  /** Only prune workspaces idle at least this long (last commit or index change). Default: any age. */
  readonly olderThanMs?: number;
  /** Also discard uncommitted changes and delete unmerged branches. */
  readonly force?: boolean;
  /** Report what would be removed without removing anything. */
  readonly dryRun?: boolean;
  /** The base branches are merged into, when known; see `removeTaskWorkspace`. */
  readonly baseRef?: string;
  /**
   * Whether a job is still running, from the job records (another area). Without it, a workspace locked by
   * a snodo process that is still alive counts as live.
   */
  readonly isJobLive?: (jobId: string) => boolean | Promise<boolean>;
  /** The current time, for tests. */
  readonly now?: number;
}

/** What prune did (or would do) with one of snodo's workspaces. */
export interface PruneTaskWorkspaceResult {
  /** The worktree path. */
  readonly path: string;
  /** Its branch. */
  readonly branch: string;
  /** Its job id. */
  readonly jobId: string;
  /** `removed`, `would-remove` (dry run) or `skipped`. */
  readonly action: 'removed' | 'would-remove' | 'skipped';
  /**
   * Why it was skipped: a live job, too recent, uncommitted changes or commits never imported (`dirty`),
   * a lock someone else placed, or a workspace repository that is no longer the shape snodo made it
   * (`tampered`: snodo runs no git there; remove it with force after a look).
   */
  readonly reason?: 'live' | 'too-recent' | 'dirty' | 'foreign-lock' | 'tampered';
  /** Removed, but the branch was kept (not merged without force, or checked out elsewhere). */
  readonly branchKept?: boolean;
}

/**
 * Remove snodo's task workspaces that are idle, not live and safe to delete, following
 * `removeTaskWorkspace`'s rules; worktrees snodo did not create are never looked at. Returns one entry per
 * snodo workspace.
 */
export async function pruneTaskWorkspaces(
  options: PruneTaskWorkspacesOptions,
): Promise<PruneTaskWorkspaceResult[]> {
  const now = options.now ?? Date.now();
  const workspaces = await listTaskWorkspaces(options);
  const results: PruneTaskWorkspaceResult[] = [];
  for (const workspace of workspaces) {
    if (!workspace.isSnodo || workspace.branch === undefined || workspace.jobId === undefined) continue;
    const base = { path: workspace.path, branch: workspace.branch, jobId: workspace.jobId };
    const skip = (reason: PruneTaskWorkspaceResult['reason']): void => {
      results.push({ ...base, action: 'skipped', ...(reason === undefined ? {} : { reason }) });
    };
    if (workspace.locked && !workspace.lockedBySnodo) {
      skip('foreign-lock');
      continue;
    }
    if (await isLive(workspace, options)) {
      skip('live');
      continue;
    }
    if (workspace.layout === 'repository' && !options.force && !isIntact(workspace.path)) {
      skip('tampered');
      continue;
    }
    if (options.olderThanMs !== undefined && now - (await lastActivity(workspace)) < options.olderThanMs) {
      skip('too-recent');
      continue;
    }
    if (!options.force && !workspace.missing && (await workingTreeStatus(workspace.path)).length > 0) {
      skip('dirty');
      continue;
    }
    if (options.dryRun) {
      results.push({ ...base, action: 'would-remove' });
      continue;
    }
    try {
      const removed = await removeTaskWorkspace({
        repositoryRoot: options.repositoryRoot,
        worktreesDirectory: options.worktreesDirectory,
        worktreePath: workspace.path,
        branch: workspace.branch,
        baseRef: options.baseRef,
        force: options.force ?? false,
      });
      results.push({ ...base, action: 'removed', branchKept: !removed.branchDeleted });
    } catch (error) {
      if (WorktreeDirtyError.isInstance(error)) skip('dirty');
      else if (ForeignWorkspaceError.isInstance(error)) skip('foreign-lock');
      else if (WorkspaceTamperedError.isInstance(error)) skip('tampered');
      // Commits in a workspace repository that were never imported would be lost.
      else if (IsolationFailedError.isInstance(error) && error.operation === 'remove') skip('dirty');
      else throw error;
    }
  }
  return results;
}

async function isLive(workspace: TaskWorkspaceEntry, options: PruneTaskWorkspacesOptions): Promise<boolean> {
  if (options.isJobLive !== undefined && workspace.jobId !== undefined)
    return options.isJobLive(workspace.jobId);
  return (
    workspace.lockedBySnodo &&
    workspace.lockPid !== undefined &&
    isSameProcessAlive(workspace.lockPid, workspace.lockProcessStartTimeMs)
  );
}

function isIntact(worktreePath: string): boolean {
  try {
    assertWorkspaceIntact({ worktreePath });
    return true;
  } catch {
    return false;
  }
}

/** The newest of the last commit's date and the workspace index's modification time, in ms. */
async function lastActivity(workspace: TaskWorkspaceEntry): Promise<number> {
  let latest = 0;
  if (workspace.head !== undefined && !workspace.missing) {
    const date = await git(['log', '-1', '--format=%ct', workspace.head], {
      cwd: workspace.path,
      readOnly: true,
    });
    latest = Number(date.stdout.trim()) * 1000 || 0;
  }
  const index = await fs
    .stat(path.join(await gitDirectoryOf(workspace.path), 'index'))
    .catch(() => undefined);
  if (index !== undefined) latest = Math.max(latest, index.mtimeMs);
  return latest;
}

/** A workspace repository's `.git` directory, or the directory a linked worktree's `.git` file points to. */
async function gitDirectoryOf(worktreePath: string): Promise<string> {
  const dotGit = path.join(worktreePath, '.git');
  const isDirectory = (() => {
    try {
      return lstatSync(dotGit).isDirectory();
    } catch {
      return false;
    }
  })();
  if (isDirectory) return dotGit;
  const pointer = (await fs.readFile(dotGit, 'utf8').catch(() => '')).match(/^gitdir: (.+)$/m)?.[1];
  return pointer === undefined ? dotGit : path.resolve(worktreePath, pointer.trim());
}
