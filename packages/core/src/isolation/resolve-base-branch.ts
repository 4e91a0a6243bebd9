import { BaseBranchNotFoundError, BaseBranchRequiredError } from '../errors.js';
import { currentBranch } from '../git/current-branch.js';
import { git } from '../git/git.js';
import { resolveCommit } from '../git/rev-parse.js';

/** The branch a task starts from and lands on, as recorded when the job starts. */
export interface ResolvedBaseBranch {
  /** Short name, e.g. `trunk`. */
  readonly baseBranch: string;
  /** Full ref, e.g. `refs/heads/trunk`: what landing moves by compare-and-swap. */
  readonly baseRef: string;
  /** The base's commit when the job started: the diff `baseCommit..task` is what gates judge. */
  readonly baseCommit: string;
  /** Where the choice came from: `--base`, `execution.base_branch`, or the branch checked out at start. */
  readonly source: 'flag' | 'protocol' | 'checkout';
}

/**
 * Pick the base: `base` (the `--base` flag) ?? `configuredBase` (`execution.base_branch`) ?? the branch
 * checked out in `repositoryRoot`. A detached HEAD without either throws `BaseBranchRequiredError`; a
 * named branch that is not a local branch with commits throws `BaseBranchNotFoundError`. Never assumes
 * `main`.
 */
export async function resolveBaseBranch(options: {
  repositoryRoot: string;
  base?: string | undefined;
  configuredBase?: string | undefined;
}): Promise<ResolvedBaseBranch> {
  const named = nonEmpty(options.base) ?? nonEmpty(options.configuredBase);
  const source = nonEmpty(options.base) !== undefined ? 'flag' : 'protocol';
  if (named === undefined) {
    const head = await currentBranch(options.repositoryRoot);
    if (head.detached) {
      throw new BaseBranchRequiredError({
        repositoryRoot: options.repositoryRoot,
        detachedCommit: head.commit,
      });
    }
    if (head.commit === undefined) {
      throw new BaseBranchNotFoundError({
        repositoryRoot: options.repositoryRoot,
        baseBranch: head.name,
        source: 'checkout',
      });
    }
    return { baseBranch: head.name, baseRef: head.ref, baseCommit: head.commit, source: 'checkout' };
  }
  const baseBranch = named.startsWith('refs/heads/') ? named.slice('refs/heads/'.length) : named;
  const valid = await git(['check-ref-format', '--branch', baseBranch], {
    cwd: options.repositoryRoot,
    allowFailure: true,
    readOnly: true,
  });
  const baseRef = `refs/heads/${baseBranch}`;
  const baseCommit =
    valid.exitCode === 0 && valid.stdout.trim() === baseBranch
      ? await resolveCommit(options.repositoryRoot, baseRef)
      : undefined;
  if (baseCommit === undefined) {
    throw new BaseBranchNotFoundError({ repositoryRoot: options.repositoryRoot, baseBranch: named, source });
  }
  return { baseBranch, baseRef, baseCommit, source };
}

/**
 * The base branch chosen when the job started (`resolveBaseBranch`), at its commit now: the workspace is
 * made from it without asking git again which branch is checked out (one process fewer per run). The
 * branch stays the one the job started from even if the user switched branches since; a branch deleted
 * meanwhile throws `BaseBranchNotFoundError` as at the start.
 */
export async function baseBranchNow(
  repositoryRoot: string,
  chosen: Omit<ResolvedBaseBranch, 'baseCommit'>,
): Promise<ResolvedBaseBranch> {
  const baseCommit = await resolveCommit(repositoryRoot, chosen.baseRef);
  if (baseCommit === undefined) {
    throw new BaseBranchNotFoundError({
      repositoryRoot,
      baseBranch: chosen.baseBranch,
      source: chosen.source,
    });
  }
  return { ...chosen, baseCommit };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
