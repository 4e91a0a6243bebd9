import { git } from '../git/git.js';
import { mergeTrees } from '../git/merge-trees.js';
import { isAncestor, resolveCommit, revParse } from '../git/rev-parse.js';
import { taskBranchPrefix } from './task-branch-name.js';

/**
 * `true` when deleting a branch whose tip is `tip` loses nothing: with `baseRef`, the base contains the
 * tip's commits or already has all its changes (a squash landing leaves no ancestry, so "merging again
 * would change nothing" counts too); without a base, some local branch that is not snodo's contains it.
 */
export async function isBranchMerged(options: {
  cwd: string;
  tip: string;
  baseRef?: string | undefined;
  /** `baseRef` already resolved by the caller (`null`: it names no commit), which spares reading it again. */
  baseCommit?: string | null;
}): Promise<boolean> {
  const { cwd, tip } = options;
  if (options.baseRef !== undefined) {
    const base =
      options.baseCommit === undefined
        ? await resolveCommit(cwd, options.baseRef)
        : (options.baseCommit ?? undefined);
    if (base === undefined) return false;
    if (await isAncestor(cwd, tip, base)) return true;
    const merge = await mergeTrees({ cwd, ours: base, theirs: tip }).catch(() => undefined);
    return (
      merge !== undefined &&
      merge.conflictedFiles.length === 0 &&
      merge.tree === (await revParse(cwd, `${base}^{tree}`))
    );
  }
  const containing = await git(['for-each-ref', '--contains', tip, '--format=%(refname)', 'refs/heads/'], {
    cwd,
    readOnly: true,
  });
  return containing.stdout
    .split('\n')
    .some((ref) => ref !== '' && !ref.startsWith(`refs/heads/${taskBranchPrefix}`));
}
