import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.CODER_CREDENTIALS_MISSING';

/**
 * The coder needs a key and none of its environment variables is set (nor stored with `snodo config add`).
 * Thrown before the coder starts, so nothing is written.
 */
export class CoderCredentialsMissingError extends SnodoError<'CODER_CREDENTIALS_MISSING'> {
  /** The coder's id. */
  readonly coderId: string;
  /** The environment variables that could carry the key, in order of preference. */
  readonly envVars: readonly string[];
  /** The provider name for `snodo config add <provider> <key>`, when the coder has one. */
  readonly configKey: string | undefined;

  constructor(options: {
    coderId: string;
    displayName: string;
    envVars: readonly string[];
    configKey?: string;
    /** The coder's own account of what is missing, when its key depends on the model (availability `reason`). */
    reason?: string;
    /** The coder's own fix (availability `fix`). */
    fix?: string;
    cause?: unknown;
  }) {
    const variables = options.envVars.length === 0 ? 'its credential variable' : options.envVars.join(' or ');
    const first = options.envVars[0] ?? 'the key variable';
    const fix =
      options.fix ??
      (options.configKey === undefined
        ? `Export ${first}=<key> before running snodo.`
        : `Store a key with \`snodo config add ${options.configKey} <key>\`, or export ${first}=<key>.`);
    const what = options.reason ?? `${options.displayName} needs a key and ${variables} is not set.`;
    super('CODER_CREDENTIALS_MISSING', {
      message: `${what} ${fix}`,
      cause: options.cause,
    });
    this.name = 'CoderCredentialsMissingError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.envVars = [...options.envVars];
    this.configKey = options.configKey;
  }

  static override isInstance(value: unknown): value is CoderCredentialsMissingError {
    return SnodoError.hasMarker(value, marker);
  }
}
