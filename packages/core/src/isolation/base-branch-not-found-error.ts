import { SnodoError } from '@snodo/coder-sdk';

const name = 'BaseBranchNotFoundError';
const marker = 'snodo.error.BASE_BRANCH_NOT_FOUND';
const symbol = Symbol.for(marker);

/**
 * The base branch given by `--base` or `execution.base_branch` is not a local branch of the repository
 * (a typo, a remote-only branch, a tag, or an unborn branch without commits). A task must start from and
 * land on a local branch, so nothing is created.
 */
export class BaseBranchNotFoundError extends SnodoError {
  private readonly [symbol] = true;

  /** The branch name as given. */
  readonly baseBranch: string;
  /** Where it came from, for the message: the `--base` flag or the protocol. */
  readonly source: 'flag' | 'protocol' | 'checkout';

  constructor(options: {
    repositoryRoot: string;
    baseBranch: string;
    source: 'flag' | 'protocol' | 'checkout';
    cause?: unknown;
  }) {
    const origin =
      options.source === 'flag'
        ? '--base'
        : options.source === 'protocol'
          ? 'execution.base_branch in .snodo/protocol.yml'
          : 'the current checkout';
    super('BASE_BRANCH_NOT_FOUND', {
      message:
        `The base branch "${options.baseBranch}" (from ${origin}) is not a local branch with commits in ` +
        `${options.repositoryRoot}. List branches with \`git branch\`; for a remote branch create it first ` +
        `(\`git switch ${options.baseBranch}\`), then pass \`--base <branch>\`.`,
      cause: options.cause,
    });
    this.name = name;
    this.baseBranch = options.baseBranch;
    this.source = options.source;
  }

  static override isInstance(value: unknown): value is BaseBranchNotFoundError {
    return SnodoError.hasMarker(value, marker);
  }
}
