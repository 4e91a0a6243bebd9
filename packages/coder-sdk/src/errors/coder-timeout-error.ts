import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.CODER_TIMEOUT';

/**
 * The coder ran past its wall-clock limit or went silent past its idle limit, and its process group was
 * killed. `limit` says which one fired, so a user knows whether to raise `coder_timeout_seconds` or look
 * for a hang.
 */
export class CoderTimeoutError extends SnodoError<'CODER_TIMEOUT'> {
  /** The coder's id. */
  readonly coderId: string;
  /** Which limit fired. */
  readonly limit: 'wall-clock' | 'idle';
  /** The limit in milliseconds. */
  readonly timeoutMs: number;

  constructor(options: {
    coderId: string;
    displayName: string;
    limit: 'wall-clock' | 'idle';
    timeoutMs: number;
    cause?: unknown;
  }) {
    const seconds = Math.round(options.timeoutMs / 1000);
    const what =
      options.limit === 'wall-clock'
        ? `ran longer than ${seconds}s`
        : `printed nothing for ${seconds}s and looked hung`;
    super('CODER_TIMEOUT', {
      message:
        `${options.displayName} ${what}; snodo stopped it and its child processes. ` +
        `Raise the limit with execution.coder_timeout_seconds in .snodo/protocol.yml or ` +
        `coders.${options.coderId}.timeout_seconds in config, or split the task.`,
      cause: options.cause,
    });
    this.name = 'CoderTimeoutError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.limit = options.limit;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(value: unknown): value is CoderTimeoutError {
    return SnodoError.hasMarker(value, marker);
  }
}
