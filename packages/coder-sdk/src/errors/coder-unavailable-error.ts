import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.CODER_UNAVAILABLE';

/**
 * A coder reported itself not ready for a reason other than a missing install, an unverified version or a
 * missing key (a container daemon that is not running, a server that does not answer). Built by
 * `availabilityError` from the availability's own `reason` and `fix`.
 */
export class CoderUnavailableError extends SnodoError<'CODER_UNAVAILABLE'> {
  /** The coder's id. */
  readonly coderId: string;
  /** The coder's own explanation. */
  readonly reason: string;
  /** The step that fixes it, when the coder gave one. */
  readonly fix: string | undefined;

  constructor(options: {
    coderId: string;
    displayName: string;
    reason: string;
    fix?: string;
    cause?: unknown;
  }) {
    const fix = options.fix === undefined ? 'Run `snodo doctor` for details.' : `Fix: ${options.fix}`;
    super('CODER_UNAVAILABLE', {
      // A reason may end its own sentence; one period, never two.
      message: `${options.displayName} cannot run here: ${options.reason.replace(/\.+$/, '')}. ${fix}`,
      cause: options.cause,
    });
    this.name = 'CoderUnavailableError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.reason = options.reason;
    this.fix = options.fix;
  }

  static override isInstance(value: unknown): value is CoderUnavailableError {
    return SnodoError.hasMarker(value, marker);
  }
}
