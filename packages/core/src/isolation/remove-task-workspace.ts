import { existsSync } from 'node:fs';
import { ForeignWorkspaceError } from '../errors.js';
import { git } from '../git/git.js';
import { listWorktrees, type WorktreeEntry } from '../git/list-worktrees.js';
import { findGitCommonDirectory, findRepositoryRoot } from '../git/repository-paths.js';
import { resolveCommits } from '../git/rev-parse.js';
import { isBranchMerged } from './branch-merged.js';
import { canonicalPath, isPathInside } from './path-inside.js';
import { removeDirectory } from './remove-directory.js';
import { removeLinkedWorktree } from './remove-linked-worktree.js';
import { removeRepositoryWorkspace } from './remove-repository-workspace.js';
import { taskBranchPrefix } from './task-branch-name.js';
import { readWorkspaceMarker } from './workspace-marker.js';

/** Options of `removeTaskWorkspace`. */
export interface RemoveTaskWorkspaceOptions {
  /** A directory inside the user's repository. */
  readonly repositoryRoot: string;
  /** snodo's worktrees directory; the workspace must lie under it. */
  readonly worktreesDirectory: string;
  /** The task workspace to remove. */
  readonly worktreePath: string;
  /** The task branch; must start with `snodo/`. */
  readonly branch: string;
  /** The base the branch was meant for; the branch is deleted only when merged into it. Without it, merged into any non-snodo branch. */
  readonly baseRef?: string | undefined;
  /**
   * Discard uncommitted changes, commits never imported from the workspace, and an unmerged branch. Never
   * overrides a foreign lock or ownership.
   */
  readonly force?: boolean;
  /**
   * The repository's worktrees as the caller read them moments ago (a landing, under the merge lock):
   * used instead of a second `git worktree list`. Only paths and branch names are read from them.
   */
  readonly worktrees?: readonly WorktreeEntry[] | undefined;
}

/** What `removeTaskWorkspace` did. */
export interface RemoveTaskWorkspaceResult {
  /** The workspace (directory, and registration for a linked worktree) is gone. */
  readonly worktreeRemoved: boolean;
  /** The task branch was deleted. */
  readonly branchDeleted: boolean;
  /** Why the branch was kept: not merged (use force), already gone, or checked out in another worktree. */
  readonly branchKeptReason?: 'not-merged' | 'missing' | 'checked-out';
  /** Why the workspace was kept: a leftover directory that is not snodo's, removed only with force. */
  readonly worktreeKeptReason?: 'unregistered-directory';
}

/**
 * Remove a task workspace and, when merged (or `force`), its branch in the user's repository. Handles
 * both layouts: a workspace repository recognised by its marker (see `removeRepositoryWorkspace`), and a
 * linked worktree registered by an earlier snodo (`git worktree list`; see `removeLinkedWorktree`).
 * Refuses with `ForeignWorkspaceError` anything snodo did not create (branch outside `snodo/`, path
 * outside the worktrees directory, a marker or lock naming someone else); refuses with
 * `WorktreeDirtyError` a workspace with uncommitted changes unless `force`. The caller (abandon, prune, a
 * successful run) decides that the job is no longer live.
 */
export async function removeTaskWorkspace(
  options: RemoveTaskWorkspaceOptions,
): Promise<RemoveTaskWorkspaceResult> {
  const repositoryRoot = await findRepositoryRoot(options.repositoryRoot);
  const worktreePath = canonicalPath(options.worktreePath);
  const taskRef = `refs/heads/${options.branch}`;
  const force = options.force === true;
  const foreign = (reason: string): ForeignWorkspaceError =>
    new ForeignWorkspaceError({ worktreePath, branch: options.branch, reason });
  if (!options.branch.startsWith(taskBranchPrefix))
    throw foreign(`the branch is not under ${taskBranchPrefix}`);
  const worktreesDirectory = canonicalPath(options.worktreesDirectory);
  if (!isPathInside(worktreesDirectory, worktreePath) || worktreePath === worktreesDirectory) {
    throw foreign(`the path is not under snodo's worktrees directory ${worktreesDirectory}`);
  }

  const isEntry = (worktree: WorktreeEntry) =>
    !worktree.isMain && canonicalPath(worktree.path) === worktreePath;
  // A linked worktree (an earlier snodo's layout) is removed by its lock state: that is read afresh.
  const worktrees =
    options.worktrees !== undefined && !options.worktrees.some(isEntry)
      ? options.worktrees
      : await listWorktrees(repositoryRoot);
  const entry = worktrees.find(isEntry);
  const marker = entry === undefined ? readWorkspaceMarker(worktreePath) : undefined;
  let worktreeRemoved = false;
  let worktreeKeptReason: RemoveTaskWorkspaceResult['worktreeKeptReason'];
  if (entry !== undefined) {
    worktreeRemoved = await removeLinkedWorktree({ repositoryRoot, entry, taskRef, force, foreign });
  } else if (marker !== undefined) {
    worktreeRemoved = await removeRepositoryWorkspace({
      repositoryRoot,
      gitCommonDirectory: canonicalPath(await findGitCommonDirectory(repositoryRoot)),
      worktreePath,
      marker,
      branch: options.branch,
      baseRef: options.baseRef,
      force,
      foreign,
    });
  } else if (existsSync(worktreePath)) {
    // A directory without a marker or registration (a crash before either was written): only force.
    if (force) {
      await removeDirectory(worktreePath);
      worktreeRemoved = true;
    } else {
      worktreeKeptReason = 'unregistered-directory';
    }
  } else {
    worktreeRemoved = true;
  }

  // Removing a workspace repository leaves the linked worktrees as they were: the list read above holds.
  const branch = await removeBranch(
    repositoryRoot,
    taskRef,
    options,
    entry === undefined ? worktrees : undefined,
  );
  return {
    worktreeRemoved,
    ...branch,
    ...(worktreeKeptReason === undefined ? {} : { worktreeKeptReason }),
  };
}

async function removeBranch(
  repositoryRoot: string,
  taskRef: string,
  options: RemoveTaskWorkspaceOptions,
  worktreesRead: readonly WorktreeEntry[] | undefined,
): Promise<Pick<RemoveTaskWorkspaceResult, 'branchDeleted' | 'branchKeptReason'>> {
  const baseRef =
    options.baseRef === undefined || options.baseRef.startsWith('refs/')
      ? options.baseRef
      : `refs/heads/${options.baseRef}`;
  // The branch and its base in one read; the base only matters when the branch exists.
  const [tip, baseCommit] = await resolveCommits(repositoryRoot, [taskRef, ...(baseRef ? [baseRef] : [])]);
  if (tip === undefined) return { branchDeleted: false, branchKeptReason: 'missing' };
  const worktrees = worktreesRead ?? (await listWorktrees(repositoryRoot));
  const checkedOut = worktrees.some((worktree) => worktree.ref === taskRef);
  if (checkedOut) return { branchDeleted: false, branchKeptReason: 'checked-out' };
  const merged =
    options.force ||
    (await isBranchMerged({
      cwd: repositoryRoot,
      tip,
      baseRef,
      ...(baseRef === undefined ? {} : { baseCommit: baseCommit ?? null }),
    }));
  if (!merged) {
    return { branchDeleted: false, branchKeptReason: 'not-merged' };
  }
  // Delete exactly the tip we judged: if the branch moved meanwhile, git refuses.
  await git(['update-ref', '-d', taskRef, tip], { cwd: repositoryRoot });
  return { branchDeleted: true };
}
