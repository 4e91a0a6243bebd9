import { LlmError } from './llm-error.js';

const marker = 'snodo.error.LLM_CREDENTIALS_MISSING';

/**
 * A provider needs an API key and neither snodo's config (`providers.<name>.api_key`) nor the environment
 * has one. Thrown by `resolveModel` before any request is made, so a run fails before it starts. The
 * message names the environment variable(s) looked at and the `snodo config add` command.
 */
export class LlmCredentialsMissingError extends LlmError<'LLM_CREDENTIALS_MISSING'> {
  /** The provider name (`anthropic`). */
  readonly provider: string;
  /** The environment variables that were looked at, in order. */
  readonly envVars: readonly string[];

  constructor(options: { provider: string; envVars: readonly string[] }) {
    const { provider, envVars } = options;
    const variables =
      envVars.length === 0
        ? 'no environment variable is known for it'
        : envVars.length === 1
          ? `${envVars[0]} is not set`
          : `none of ${envVars.join(', ')} is set`;
    const exportHint = envVars.length > 0 ? ` or export ${envVars[0]}=<key>` : '';
    super('LLM_CREDENTIALS_MISSING', {
      message:
        `No API key for provider "${provider}": ${variables} and config has no ` +
        `providers.${provider}.api_key. Add one with: snodo config add ${provider} <key>${exportHint}.`,
    });
    this.name = 'LlmCredentialsMissingError';
    LlmError.mark(this, marker);
    this.provider = provider;
    this.envVars = envVars;
  }

  static override isInstance(value: unknown): value is LlmCredentialsMissingError {
    return LlmError.hasMarker(value, marker);
  }
}
