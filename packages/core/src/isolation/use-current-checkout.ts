import { BaseBranchNotFoundError, BaseBranchRequiredError } from '../errors.js';
import { currentBranch } from '../git/current-branch.js';
import { findRepositoryRoot } from '../git/repository-paths.js';
import { workingTreeStatus } from '../git/working-tree-status.js';
import { WorktreeDirtyError } from './worktree-dirty-error.js';

/** The workspace of a `--no-isolation` run: the user's own checkout, on its current branch. */
export interface CurrentCheckoutWorkspace {
  /** The checkout's root; the coder runs here. */
  readonly worktreePath: string;
  /** The current branch: the coder's commits land on it directly. */
  readonly branch: string;
  /** Same as `branch`: the base is the branch itself. */
  readonly baseBranch: string;
  /** The branch's full ref. */
  readonly baseRef: string;
  /** HEAD when the run started: gates diff `baseCommit..HEAD`. */
  readonly baseCommit: string;
  /** Always the checkout. */
  readonly baseSource: 'checkout';
  /** `false`: no worktree; landing is a no-op because the commits are already on the branch. */
  readonly isolated: false;
}

/**
 * Prepare a `--no-isolation` run in the current checkout. The working tree must be clean (staged, unstaged
 * and untracked changes all count: the agent's commit would otherwise sweep the user's edits in), else
 * `WorktreeDirtyError`; HEAD must be on a branch, else `BaseBranchRequiredError`.
 */
export async function useCurrentCheckout(options: {
  repositoryRoot: string;
}): Promise<CurrentCheckoutWorkspace> {
  const repositoryRoot = await findRepositoryRoot(options.repositoryRoot);
  const head = await currentBranch(repositoryRoot);
  if (head.detached) {
    throw new BaseBranchRequiredError({ repositoryRoot, detachedCommit: head.commit, noIsolation: true });
  }
  if (head.commit === undefined) {
    throw new BaseBranchNotFoundError({ repositoryRoot, baseBranch: head.name, source: 'checkout' });
  }
  const changes = await workingTreeStatus(repositoryRoot);
  if (changes.length > 0) {
    throw new WorktreeDirtyError({
      worktreePath: repositoryRoot,
      changedPaths: changes.map((change) => change.path),
      purpose: 'no-isolation',
    });
  }
  return {
    worktreePath: repositoryRoot,
    branch: head.name,
    baseBranch: head.name,
    baseRef: head.ref,
    baseCommit: head.commit,
    baseSource: 'checkout',
    isolated: false,
  };
}
