import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { git } from '../git/git.js';
import { GitCommandError } from '../git/git-command-error.js';
import { headFileNames } from '../git/head-file.js';
import { listWorktrees, type WorktreeEntry } from '../git/list-worktrees.js';
import { findGitDirectory } from '../git/repository-paths.js';
import { type StatusEntry, workingTreeStatus } from '../git/working-tree-status.js';
import { IsolationFailedError } from './isolation-failed-error.js';

/** A working tree that has the base branch checked out, as found just before landing. */
export interface BaseCheckout {
  /** The working tree's root (usually the user's main checkout). */
  readonly path: string;
  /** Its uncommitted changes before landing; after landing they must be exactly the same. */
  readonly statusBefore: readonly StatusEntry[];
}

/** Why landing must wait for the user. */
export interface BaseCheckoutDeferral {
  /** The checkout that blocks. */
  readonly checkoutPath: string;
  /** The user's uncommitted paths that the merge also changes (empty when an operation is in progress). */
  readonly overlappingPaths: readonly string[];
  /** What blocks, in words, e.g. "a merge is in progress". */
  readonly reason: string;
}

/** Files whose presence in a git directory means the user is in the middle of something. */
const operationMarkers: readonly [string, string][] = [
  ['MERGE_HEAD', 'a merge is in progress'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick is in progress'],
  ['REVERT_HEAD', 'a revert is in progress'],
  ['rebase-merge', 'a rebase is in progress'],
  ['rebase-apply', 'a rebase or `git am` is in progress'],
];

/** The checkouts of the base as read under the merge lock, before anything moves. */
export interface BaseCheckoutsRead {
  /** Every working tree with the base checked out, with its uncommitted changes. */
  readonly checkouts: BaseCheckout[];
  /** Something in progress that blocks any landing on the base (a rebase, a merge in a checkout of it). */
  readonly blocked?: BaseCheckoutDeferral;
  /** The repository's worktrees as listed (absent when a rebase stopped the reading early). */
  readonly worktrees?: WorktreeEntry[];
}

/**
 * Every working tree with `baseRef` checked out, with its uncommitted changes, and whether the user is in
 * the middle of something there (a merge, rebase or cherry-pick; or a rebase of the base anywhere) that
 * blocks landing on it. Reads only. Which landing the changes stand in the way of is `checkoutOverlap`'s
 * question: a train asks it once per landing, of one reading.
 */
export async function readBaseCheckouts(options: {
  repositoryRoot: string;
  gitCommonDirectory: string;
  baseRef: string;
}): Promise<BaseCheckoutsRead> {
  const rebasing = await findRebaseOf(options.gitCommonDirectory, options.baseRef);
  if (rebasing !== undefined) {
    return {
      checkouts: [],
      blocked: { checkoutPath: rebasing, overlappingPaths: [], reason: 'a rebase of it is in progress' },
    };
  }
  // The main checkout is nearly always the base's: when its HEAD file says so, its status is read while the
  // worktrees are listed (a read only; wasted when the listing says otherwise).
  const mainStatus = headFileNames(options.repositoryRoot, options.baseRef)
    ? workingTreeStatus(options.repositoryRoot)
    : undefined;
  mainStatus?.catch(() => undefined);
  const worktrees = await listWorktrees(options.repositoryRoot);
  const checkouts: BaseCheckout[] = [];
  for (const worktree of worktrees) {
    if (worktree.bare || worktree.ref !== options.baseRef || !existsSync(worktree.path)) continue;
    const gitDirectory = await findGitDirectory(worktree.path);
    for (const [marker, reason] of operationMarkers) {
      if (existsSync(path.join(gitDirectory, marker))) {
        return {
          checkouts,
          blocked: { checkoutPath: worktree.path, overlappingPaths: [], reason },
          worktrees,
        };
      }
    }
    const statusBefore =
      mainStatus !== undefined && path.resolve(worktree.path) === path.resolve(options.repositoryRoot)
        ? await mainStatus
        : await workingTreeStatus(worktree.path);
    checkouts.push({ path: worktree.path, statusBefore });
  }
  return { checkouts, worktrees };
}

/**
 * The first checkout whose uncommitted changes touch files a landing changes (`changedPaths`), as a
 * deferral; `undefined` when moving the base by that landing cannot touch the user's work.
 */
export function checkoutOverlap(
  checkouts: readonly BaseCheckout[],
  changedPaths: readonly string[],
): BaseCheckoutDeferral | undefined {
  for (const checkout of checkouts) {
    const dirty = checkout.statusBefore.flatMap((entry) =>
      entry.originalPath === undefined ? [entry.path] : [entry.path, entry.originalPath],
    );
    const overlapping = overlappingPaths(dirty, changedPaths);
    if (overlapping.length > 0) {
      return {
        checkoutPath: checkout.path,
        overlappingPaths: overlapping,
        reason: 'uncommitted changes there touch files the merge changes',
      };
    }
  }
  return undefined;
}

/**
 * The user's dirty paths that collide with the merge's changed paths: the same path, or one a directory of
 * the other (an untracked `docs` file blocks a merge adding `docs/a.md`). Sorted, without duplicates.
 */
export function overlappingPaths(dirtyPaths: readonly string[], changedPaths: readonly string[]): string[] {
  const changed = new Set(changedPaths);
  const changedDirectories = new Set<string>();
  for (const changedPath of changedPaths) {
    for (let slash = changedPath.indexOf('/'); slash !== -1; slash = changedPath.indexOf('/', slash + 1)) {
      changedDirectories.add(changedPath.slice(0, slash));
    }
  }
  const overlapping = new Set<string>();
  for (const dirty of dirtyPaths.map((entry) => entry.replace(/\/+$/, ''))) {
    if (changed.has(dirty) || changedDirectories.has(dirty)) {
      overlapping.add(dirty);
      continue;
    }
    for (let slash = dirty.indexOf('/'); slash !== -1; slash = dirty.indexOf('/', slash + 1)) {
      if (changed.has(dirty.slice(0, slash))) {
        overlapping.add(dirty);
        break;
      }
    }
  }
  return [...overlapping].sort();
}

/**
 * Bring a checkout's index and files from `from` to `to` after its branch moved, with a two-way
 * `git read-tree -m -u`: it refuses (and changes nothing) if that would overwrite any local change, and it
 * keeps unrelated staged and unstaged changes as they are. Never stash, never reset.
 */
export async function advanceCheckout(checkoutPath: string, from: string, to: string): Promise<void> {
  let refreshed = false;
  for (let attempt = 1; ; attempt++) {
    try {
      await git(['read-tree', '-m', '-u', from, to], { cwd: checkoutPath });
      return;
    } catch (error) {
      const stderr = GitCommandError.isInstance(error) ? error.stderr : '';
      // NOTE: read-tree -m trusts the index's stat data: a file touched without a content change looks
      // modified and makes it refuse ("not uptodate"), having checked everything before writing anything.
      // Only then is the stat data refreshed (never content or staging) and the same read-tree tried again,
      // which spares the refresh's process on every landing whose checkout is fresh.
      if (!refreshed && stderr.includes('not uptodate')) {
        refreshed = true;
        await git(['update-index', '-q', '--ignore-submodules', '--refresh'], {
          cwd: checkoutPath,
          allowFailure: true,
        });
        continue;
      }
      // An editor or IDE polling git holds index.lock for a moment: wait a little and try again.
      const busy = stderr.includes('index.lock');
      if (!busy || attempt >= 5) throw error;
      await sleep(100 * attempt);
    }
  }
}

/** Where a rebase of `baseRef` is in progress (any worktree), or `undefined`. */
async function findRebaseOf(gitCommonDirectory: string, baseRef: string): Promise<string | undefined> {
  const gitDirectories = [gitCommonDirectory];
  const linked = path.join(gitCommonDirectory, 'worktrees');
  for (const name of await fs.readdir(linked).catch(() => [] as string[]))
    gitDirectories.push(path.join(linked, name));
  for (const gitDirectory of gitDirectories) {
    for (const state of ['rebase-merge', 'rebase-apply']) {
      const headName = await fs.readFile(path.join(gitDirectory, state, 'head-name'), 'utf8').catch(() => '');
      if (headName.trim() === baseRef) return gitDirectory;
    }
  }
  return undefined;
}

/** Advance each checkout; on a refusal, put back the ones already advanced and report which one refused. */
export async function updateCheckouts(
  checkouts: readonly BaseCheckout[],
  from: string,
  to: string,
  changedPaths: ReadonlySet<string>,
): Promise<{ paths: string[]; failure?: { path: string; detail: string } }> {
  const done: string[] = [];
  for (const checkout of checkouts) {
    try {
      await advanceCheckout(checkout.path, from, to);
      done.push(checkout.path);
    } catch (error) {
      for (const checkoutPath of done.reverse())
        await advanceCheckout(checkoutPath, to, from).catch(() => undefined);
      return { paths: [], failure: { path: checkout.path, detail: (error as Error).message } };
    }
  }
  for (const checkout of checkouts) await verifyCheckout(checkout, changedPaths, to);
  return { paths: done };
}

/**
 * After landing, a checkout must show the user's own changes exactly as before, and nothing on the paths
 * the merge changed: an entry there would be the merge showing up reversed (staged or not). New entries
 * elsewhere are tolerated: the user may be editing, and runtime files may appear meanwhile.
 */
async function verifyCheckout(
  checkout: BaseCheckout,
  changedPaths: ReadonlySet<string>,
  landed: string,
): Promise<void> {
  const describe = (entry: { index: string; workTree: string; path: string }): string =>
    `${entry.index}${entry.workTree} ${entry.path}`;
  const after = await workingTreeStatus(checkout.path);
  const afterKeys = new Set(after.map(describe));
  const lost = checkout.statusBefore.map(describe).filter((key) => !afterKeys.has(key));
  const reversed = after
    .filter(
      (entry) =>
        changedPaths.has(entry.path) ||
        (entry.originalPath !== undefined && changedPaths.has(entry.originalPath)),
    )
    .map(describe);
  if (lost.length > 0 || reversed.length > 0) {
    throw new IsolationFailedError({
      operation: 'land',
      message:
        `Landed ${landed.slice(0, 12)}, but \`git status\` in ${checkout.path} is not what it should be` +
        (lost.length > 0 ? `; your changes no longer show as before: ${lost.join('; ')}` : '') +
        (reversed.length > 0 ? `; the merged files show as changed: ${reversed.join('; ')}` : '') +
        '. Check it before committing there.',
    });
  }
}
