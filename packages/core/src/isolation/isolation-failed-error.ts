import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.ISOLATION_FAILED';

/**
 * snodo could not create, land or clean up a task's git workspace. The run stops: it never falls back to
 * running in the user's checkout without isolation (the original's silent "degraded mode"). The message
 * carries git's own explanation.
 */
export class IsolationFailedError extends SnodoError<'ISOLATION_FAILED'> {
  /** What snodo was doing: `create`, `land` or `remove`. */
  readonly operation: 'create' | 'land' | 'remove';

  constructor(options: { operation: 'create' | 'land' | 'remove'; message: string; cause?: unknown }) {
    super('ISOLATION_FAILED', { message: options.message, cause: options.cause });
    this.name = 'IsolationFailedError';
    SnodoError.mark(this, marker);
    this.operation = options.operation;
  }

  static override isInstance(value: unknown): value is IsolationFailedError {
    return SnodoError.hasMarker(value, marker);
  }
}
