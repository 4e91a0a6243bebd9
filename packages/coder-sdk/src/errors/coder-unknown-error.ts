import { SnodoError } from './snodo-error.js';

const name = 'CoderUnknownError';
const marker = 'snodo.error.CODER_UNKNOWN';
const symbol = Symbol.for(marker);

/**
 * No registered coder has the requested id. snodo never falls back to another coder silently: running a
 * different coder than the one asked for would change who writes the code without the user knowing.
 */
export class CoderUnknownError extends SnodoError {
  private readonly [symbol] = true;

  /** The id that was asked for (`--coder`, the protocol mode, or a model prefix). */
  readonly requestedId: string;
  /** The ids that are registered, sorted. */
  readonly registeredIds: readonly string[];

  constructor(options: { requestedId: string; registeredIds: readonly string[]; cause?: unknown }) {
    const registeredIds = [...options.registeredIds].sort();
    const known = registeredIds.length === 0 ? 'none' : registeredIds.join(', ');
    super('CODER_UNKNOWN', {
      message:
        `No coder named "${options.requestedId}" is registered (registered: ${known}). ` +
        'Pick one with --coder <id>, or add a third-party coder under `coders:` in config; ' +
        '`snodo coders` lists them.',
      cause: options.cause,
    });
    this.name = name;
    this.requestedId = options.requestedId;
    this.registeredIds = registeredIds;
  }

  static override isInstance(value: unknown): value is CoderUnknownError {
    return SnodoError.hasMarker(value, marker);
  }
}
