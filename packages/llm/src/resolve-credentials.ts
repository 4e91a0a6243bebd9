import { describeProvider } from './known-providers.js';
import type { Environment, LlmSettings, ProviderSettings } from './llm-settings.js';

/**
 * Where a provider's API key comes from, without the key itself, so it can be printed (`snodo coders`,
 * `snodo doctor`), audited and put in `state.json`.
 */
export interface ProviderCredentials {
  /** The provider name (`anthropic`). */
  readonly provider: string;
  /**
   * `config`: `providers.<name>.api_key`. `environment`: the variable in `envVar`. `none`: no key was
   * found; `required` says whether that is a problem.
   */
  readonly source: 'config' | 'environment' | 'none';
  /** The variable that supplied the key; `undefined` unless `source` is `environment`. */
  readonly envVar: string | undefined;
  /** The variables looked at, in order (`api_key_env` alone when config sets it). */
  readonly envVars: readonly string[];
  /** Whether the provider refuses to work without a key. */
  readonly required: boolean;
}

/** Credentials plus the key, for the one internal caller that hands it to a provider client. */
export interface LoadedCredentials {
  readonly credentials: ProviderCredentials;
  readonly apiKey: string | undefined;
}

/**
 * Finds a provider's API key: config `providers.<name>.api_key` first, then the environment
 * (`providers.<name>.api_key_env` when set, else the provider's default variables, e.g. `ANTHROPIC_API_KEY`,
 * or `GOOGLE_GENERATIVE_AI_API_KEY` then `GEMINI_API_KEY`). Reports where it came from, never the value.
 *
 * Called by `resolveModel`, and by the CLI to show which keys are present. Never throws: a missing required
 * key is `source: 'none', required: true`; `resolveModel` turns that into `LlmCredentialsMissingError`.
 */
export function resolveCredentials(provider: string, settings: LlmSettings = {}): ProviderCredentials {
  return loadCredentials(provider, settings).credentials;
}

/** `resolveCredentials` plus the key itself. Internal: the key goes to the provider client and nowhere else. */
export function loadCredentials(provider: string, settings: LlmSettings): LoadedCredentials {
  const env: Environment = settings.env ?? process.env;
  const providerSettings = findProviderSettings(provider, settings);
  const description = describeProvider(provider, providerSettings?.base_url);
  const configuredVar = nonEmpty(providerSettings?.api_key_env);
  const envVars = configuredVar === undefined ? description.envVars : [configuredVar];
  const base = { provider, envVars, required: description.keyRequired };

  const configKey = nonEmpty(providerSettings?.api_key);
  if (configKey !== undefined) {
    return { credentials: { ...base, source: 'config', envVar: undefined }, apiKey: configKey };
  }
  for (const envVar of envVars) {
    const value = nonEmpty(env[envVar]);
    if (value !== undefined)
      return { credentials: { ...base, source: 'environment', envVar }, apiKey: value };
  }
  return { credentials: { ...base, source: 'none', envVar: undefined }, apiKey: undefined };
}

/**
 * The config entry for a provider. Google may be configured under `google` or `gemini` (LiteLLM's name,
 * and what `snodo config add gemini <key>` writes).
 */
export function findProviderSettings(provider: string, settings: LlmSettings): ProviderSettings | undefined {
  const name = configuredProviderName(provider, settings.providers);
  return name === undefined ? undefined : settings.providers?.[name];
}

/** The name `provider` is configured under in `providers` (Google's may be `gemini`), when it is at all. */
export function configuredProviderName(
  provider: string,
  providers: LlmSettings['providers'],
): string | undefined {
  if (providers?.[provider] !== undefined) return provider;
  return provider === 'google' && providers?.gemini !== undefined ? 'gemini' : undefined;
}

/** The provider a config entry's name stands for: `gemini` (LiteLLM's name) is Google. */
export function providerOfConfigEntry(name: string): string {
  return name === 'gemini' ? 'google' : name;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
