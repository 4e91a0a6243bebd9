import { git } from './git.js';

/** What merging two commits would produce, computed without touching any index, working tree or ref. */
export interface MergeTreesResult {
  /** The merged tree (with conflict markers in conflicted files when `conflictedFiles` is not empty). */
  readonly tree: string;
  /** Paths that conflict; empty when the merge is clean. */
  readonly conflictedFiles: readonly string[];
}

/**
 * Merge `ours` and `theirs` in memory with `git merge-tree --write-tree` (git ≥ 2.38). Landing calls it
 * before anything moves, so a conflict leaves no MERGE_HEAD, SQUASH_MSG or half-applied state anywhere;
 * only unreferenced objects are written. Throws `GitCommandError` on real failures (unknown commits,
 * unrelated histories).
 */
export async function mergeTrees(options: {
  cwd: string;
  ours: string;
  theirs: string;
}): Promise<MergeTreesResult> {
  const result = await git(
    [
      'merge-tree',
      '--write-tree',
      '--name-only',
      '-z',
      '--no-messages',
      '--end-of-options',
      options.ours,
      options.theirs,
    ],
    { cwd: options.cwd, allowFailure: true },
  );
  if (result.exitCode !== 0 && result.exitCode !== 1) {
    // Rerun without allowFailure so the caller gets the typed error with git's stderr.
    await git(['merge-tree', '--write-tree', '--end-of-options', options.ours, options.theirs], {
      cwd: options.cwd,
    });
  }
  const [tree = '', ...paths] = result.stdout.split('\0');
  const conflictedFiles = result.exitCode === 1 ? [...new Set(paths.filter((entry) => entry !== ''))] : [];
  return { tree: tree.trim(), conflictedFiles };
}
