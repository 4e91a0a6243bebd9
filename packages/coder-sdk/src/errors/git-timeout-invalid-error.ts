import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.GIT_TIMEOUT_INVALID';

/**
 * `SNODO_GIT_TIMEOUT_SECONDS` (how long one git command snodo runs may take) is set to something that is not
 * a number of seconds above zero. Raised before git starts: running with a limit the user did not mean,
 * or none, would be worse than saying so.
 */
export class GitTimeoutInvalidError extends SnodoError<'GIT_TIMEOUT_INVALID'> {
  /** The variable's value as set. */
  readonly value: string;

  constructor(options: { variable: string; value: string; cause?: unknown }) {
    super('GIT_TIMEOUT_INVALID', {
      message:
        `${options.variable} is ${JSON.stringify(options.value)}, not a number of seconds above zero. ` +
        `Set it to how long one git command may run (e.g. ${options.variable}=1800), or unset it for the default of 600.`,
      cause: options.cause,
    });
    this.name = 'GitTimeoutInvalidError';
    SnodoError.mark(this, marker);
    this.value = options.value;
  }

  static override isInstance(value: unknown): value is GitTimeoutInvalidError {
    return SnodoError.hasMarker(value, marker);
  }
}
