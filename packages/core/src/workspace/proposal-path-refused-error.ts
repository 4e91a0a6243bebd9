import { SnodoError } from '@snodo/coder-sdk';

const name = 'ProposalPathRefusedError';
const marker = 'snodo.error.PROPOSAL_PATH_REFUSED';
const symbol = Symbol.for(marker);

/**
 * An engine-managed coder proposed a file outside what it may write. Nothing of the proposal was written:
 * every path is checked before the first write.
 */
export class ProposalPathRefusedError extends SnodoError {
  private readonly [symbol] = true;

  /** The path exactly as the coder proposed it. */
  readonly path: string;
  /** Why it was refused. */
  readonly reason: string;

  constructor(options: { path: string; reason: string }) {
    super('PROPOSAL_PATH_REFUSED', {
      message:
        `The coder proposed to write '${options.path}', which snodo refused: ${options.reason}. ` +
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
