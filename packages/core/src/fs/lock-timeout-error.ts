import { SnodoError } from '@snodo/coder-sdk';

const name = 'LockTimeoutError';
const marker = 'snodo.error.LOCK_TIMEOUT';
const symbol = Symbol.for(marker);

/** Waiting for one of snodo's cross-process locks took longer than allowed. Names the holder and the file. */
export class LockTimeoutError extends SnodoError {
  private readonly [symbol] = true;

  readonly lockPath: string;

  constructor(options: { lockPath: string; purpose: string; holder: string }) {
    super('LOCK_TIMEOUT', {
      message:
        `Another ${options.purpose} is still running: ${options.holder} holds ${options.lockPath}. ` +
        'Wait for it and try again, or delete that file if no snodo is running.',
    });
    this.name = name;
    this.lockPath = options.lockPath;
  }

  static override isInstance(value: unknown): value is LockTimeoutError {
    return SnodoError.hasMarker(value, marker);
  }
}
