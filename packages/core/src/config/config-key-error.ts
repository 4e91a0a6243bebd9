import { SnodoError } from '@snodo/coder-sdk';

const name = 'ConfigKeyError';
const marker = 'snodo.error.CONFIG_KEY_INVALID';
const symbol = Symbol.for(marker);

/**
 * `snodo config set|get|unset <key>` named a key the config does not have, a section where a value is
 * needed, or a value the key does not accept (a usage error, exit 2). The message lists the valid keys.
 */
export class ConfigKeyError extends SnodoError {
  private readonly [symbol] = true;

  /** The dotted key as typed. */
  readonly key: string;
  /** Every settable key, with `<provider>`-style placeholders for names the user chooses. */
  readonly validKeys: readonly string[];

  constructor(options: { key: string; problem: string; validKeys: readonly string[]; cause?: unknown }) {
    super('CONFIG_KEY_INVALID', {
      message:
        `Cannot use config key \`${options.key}\`: ${options.problem}.\n` +
        `Valid keys:\n${options.validKeys.map((key) => `  ${key}`).join('\n')}\n` +
        'For example: `snodo config set llm.validator.model <provider/model>`.',
      cause: options.cause,
    });
    this.name = name;
    this.key = options.key;
    this.validKeys = options.validKeys;
  }

  static override isInstance(value: unknown): value is ConfigKeyError {
    return SnodoError.hasMarker(value, marker);
  }
}
