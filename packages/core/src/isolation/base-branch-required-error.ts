import { SnodoError } from '@snodo/coder-sdk';

const name = 'BaseBranchRequiredError';
const marker = 'snodo.error.BASE_BRANCH_REQUIRED';
const symbol = Symbol.for(marker);

/**
 * snodo cannot tell which branch a task should start from and land on: HEAD is detached (a bisect, a
 * checked-out tag or commit) and neither `--base` nor `execution.base_branch` names one. Guessing `main`
 * is what the original did; this error asks instead.
 */
export class BaseBranchRequiredError extends SnodoError {
  private readonly [symbol] = true;

  /** The checkout whose HEAD is detached. */
  readonly repositoryRoot: string;
  /** The detached commit. */
  readonly detachedCommit: string;

  constructor(options: {
    repositoryRoot: string;
    detachedCommit: string;
    noIsolation?: boolean;
    cause?: unknown;
  }) {
    const short = options.detachedCommit.slice(0, 12);
    const next = options.noIsolation
      ? 'With --no-isolation snodo commits to the current branch, so switch to one first (`git switch <branch>`).'
      : 'Pass the branch to start from and merge into: `snodo run --base <branch> "<task>"` ' +
        '(or set execution.base_branch in .snodo/protocol.yml).';
    super('BASE_BRANCH_REQUIRED', {
      message: `HEAD in ${options.repositoryRoot} is detached at ${short}, so there is no branch to work on. ${next}`,
      cause: options.cause,
    });
    this.name = name;
    this.repositoryRoot = options.repositoryRoot;
    this.detachedCommit = options.detachedCommit;
  }

  static override isInstance(value: unknown): value is BaseBranchRequiredError {
    return SnodoError.hasMarker(value, marker);
  }
}
