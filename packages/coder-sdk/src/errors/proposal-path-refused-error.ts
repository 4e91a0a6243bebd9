import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.PROPOSAL_PATH_REFUSED';

/**
 * An engine-managed coder proposed a file outside what it may write: outside the worktree, under `.git/`
 * or `.snodo/`, through a symbolic link, or onto a directory. Nothing of the proposal was written: every
 * path is checked before the first write. Raised by a coder that checks its own proposal (the direct LLM
 * coders) and by core when it writes one; both report it the same way (job halted, `proposal_refused`).
 */
export class ProposalPathRefusedError extends SnodoError<'PROPOSAL_PATH_REFUSED'> {
  /** The path exactly as the coder proposed it. */
  readonly path: string;
  /** Why it was refused. */
  readonly reason: string;

  constructor(options: { path: string; reason: string; displayName?: string; cause?: unknown }) {
    super('PROPOSAL_PATH_REFUSED', {
      message:
        `${options.displayName ?? 'The coder'} proposed to write '${options.path}', which snodo refused: ` +
        `${options.reason}. Nothing from this proposal was written. Coders may only write relative paths ` +
        'inside the worktree, outside .git/ and .snodo/.',
      cause: options.cause,
    });
    this.name = 'ProposalPathRefusedError';
    SnodoError.mark(this, marker);
    this.path = options.path;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is ProposalPathRefusedError {
    return SnodoError.hasMarker(value, marker);
  }
}
