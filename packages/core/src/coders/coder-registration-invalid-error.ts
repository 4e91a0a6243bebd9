import { SnodoError } from '@snodo/coder-sdk';

const name = 'CoderRegistrationInvalidError';
const marker = 'snodo.error.CODER_REGISTRATION_INVALID';
const symbol = Symbol.for(marker);

/**
 * A coder registration cannot be used: two coders share an id or a model prefix, the default coder is not
 * registered, a config entry under `coders.<id>` is malformed, or a loaded adapter reports another id or
 * kind than its registration. Raised when the registry is built or a coder is loaded, before any work
 * starts, so the message points at the registration or config key to fix.
 */
export class CoderRegistrationInvalidError extends SnodoError {
  private readonly [symbol] = true;

  /** The coder id the problem concerns, when there is one. */
  readonly coderId: string | undefined;

  constructor(options: { message: string; coderId?: string; cause?: unknown }) {
    super('CODER_REGISTRATION_INVALID', { message: options.message, cause: options.cause });
    this.name = name;
    this.coderId = options.coderId;
  }

  static override isInstance(value: unknown): value is CoderRegistrationInvalidError {
    return SnodoError.hasMarker(value, marker);
  }
}
