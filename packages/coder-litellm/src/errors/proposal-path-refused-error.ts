import { SnodoError } from '@snodo/coder-sdk';

const name = 'ProposalPathRefusedError';
// NOTE: the same marker as core's own ProposalPathRefusedError, so core classifies a refusal made here
// exactly like one made when it writes (job halted, outcome `proposal_refused`) without importing this package.
const marker = 'snodo.error.PROPOSAL_PATH_REFUSED';
const symbol = Symbol.for(marker);

/**
 * The model proposed a file the coder refuses to hand to core: outside the worktree, under `.git/` or
 * `.snodo/`, through a symbolic link, or onto a directory. Checked before the result is returned, so
 * nothing of the proposal is written. Core checks every path again when it writes.
 */
export class ProposalPathRefusedError extends SnodoError {
  private readonly [symbol] = true;

  /** The path exactly as the model proposed it. */
  readonly path: string;
  /** Why it was refused. */
  readonly reason: string;

  constructor(options: { path: string; reason: string; displayName: string }) {
    super('PROPOSAL_PATH_REFUSED', {
      message:
        `${options.displayName} proposed to write '${options.path}', which snodo refused: ${options.reason}. ` +
        'Nothing from this proposal was written. Coders may only write relative paths inside the worktree, ' +
        'outside .git/ and .snodo/.',
    });
    this.name = name;
    this.path = options.path;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is ProposalPathRefusedError {
    return SnodoError.hasMarker(value, marker);
  }
}
