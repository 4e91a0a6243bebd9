import { SnodoError } from './snodo-error.js';

const name = 'CoderCapabilityUnsupportedError';
const marker = 'snodo.error.CODER_CAPABILITY_UNSUPPORTED';
const symbol = Symbol.for(marker);

/**
 * Something asked a coder for a capability it does not declare (`supportsResume` is not `true`, say).
 * snodo never silently does less than asked: the caller gets this error and can choose another coder.
 */
export class CoderCapabilityUnsupportedError extends SnodoError {
  private readonly [symbol] = true;

  /** The coder's id. */
  readonly coderId: string;
  /** The capability that was asked for (`resume`, `usage`, `abort`, `streaming-events`). */
  readonly capability: string;

  constructor(options: { coderId: string; displayName: string; capability: string; cause?: unknown }) {
    super('CODER_CAPABILITY_UNSUPPORTED', {
      message:
        `${options.displayName} does not support ${options.capability}. Choose a coder that does ` +
        '(`snodo coders` lists their capabilities), or run without it.',
      cause: options.cause,
    });
    this.name = name;
    this.coderId = options.coderId;
    this.capability = options.capability;
  }

  static override isInstance(value: unknown): value is CoderCapabilityUnsupportedError {
    return SnodoError.hasMarker(value, marker);
  }
}
