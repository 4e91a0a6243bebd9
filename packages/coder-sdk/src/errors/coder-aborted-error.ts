import { SnodoError } from './snodo-error.js';

const name = 'CoderAbortedError';
const marker = 'snodo.error.CODER_ABORTED';
const symbol = Symbol.for(marker);

/**
 * The run was cancelled (Ctrl-C, or the embedder aborted `runTask`) and the coder and its child processes
 * were stopped. The worktree is kept, so the partial work can be inspected.
 */
export class CoderAbortedError extends SnodoError {
  private readonly [symbol] = true;

  /** The coder's id. */
  readonly coderId: string;

  constructor(options: { coderId: string; displayName: string; cause?: unknown }) {
    super('CODER_ABORTED', {
      message:
        `${options.displayName} was cancelled; snodo stopped it and its child processes. ` +
        'Nothing was committed; the worktree is kept (`snodo task list` shows it).',
      cause: options.cause,
    });
    this.name = name;
    this.coderId = options.coderId;
  }

  static override isInstance(value: unknown): value is CoderAbortedError {
    return SnodoError.hasMarker(value, marker);
  }
}
