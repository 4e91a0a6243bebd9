import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.CODER_CONFIG_INVALID';

/**
 * A coder setting from config (`coders.<id>.…`) or the protocol mode's `coder_config` has the wrong shape,
 * so the adapter cannot use it. Bad input, not a coder failure.
 */
export class CoderConfigInvalidError extends SnodoError<'CODER_CONFIG_INVALID'> {
  /** The coder's id. */
  readonly coderId: string;
  /** The setting that is wrong (`binary`). */
  readonly setting: string;

  constructor(options: { coderId: string; setting: string; problem: string; cause?: unknown }) {
    super('CODER_CONFIG_INVALID', {
      message:
        `The setting "${options.setting}" for coder ${options.coderId} is invalid: ${options.problem}. ` +
        `Fix coders.${options.coderId}.${options.setting} in config or coder_config in .snodo/protocol.yml.`,
      cause: options.cause,
    });
    this.name = 'CoderConfigInvalidError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.setting = options.setting;
  }

  static override isInstance(value: unknown): value is CoderConfigInvalidError {
    return SnodoError.hasMarker(value, marker);
  }
}
