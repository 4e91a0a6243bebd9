/** How snodo talks to a provider it knows by name. */
export interface KnownProvider {
  /**
   * `anthropic`, `openai`, `google`: their own AI SDK packages, always installed. `openai-compatible`: a
   * preset endpoint reached through `@ai-sdk/openai-compatible`. `package`: an optional `@ai-sdk/<name>`
   * package loaded on demand. `mock`: snodo's offline judging models.
   */
  readonly kind: 'anthropic' | 'openai' | 'google' | 'openai-compatible' | 'package' | 'mock';
  /** API-key environment variables, in the order they are tried. */
  readonly envVars: readonly string[];
  /** Whether a call without a key is refused up front. Local endpoints and cloud SDKs with ambient auth need none. */
  readonly keyRequired: boolean;
  /** The endpoint used when config sets no `base_url`. */
  readonly defaultBaseUrl?: string;
  /** An environment variable that repoints the endpoint, as the provider's own SDK honours it. */
  readonly baseUrlEnvVar?: string;
}

/**
 * Providers with settings that differ from the rule for unknown names (`@ai-sdk/<name>` with
 * `<NAME>_API_KEY`). OpenRouter, Ollama and a LiteLLM proxy are OpenAI-compatible presets, so
 * `openrouter/…` works with only `OPENROUTER_API_KEY` set.
 */
const KNOWN_PROVIDERS: Readonly<Record<string, KnownProvider>> = {
  anthropic: {
    kind: 'anthropic',
    envVars: ['ANTHROPIC_API_KEY'],
    keyRequired: true,
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    baseUrlEnvVar: 'ANTHROPIC_BASE_URL',
  },
  openai: {
    kind: 'openai',
    envVars: ['OPENAI_API_KEY'],
    keyRequired: true,
    defaultBaseUrl: 'https://api.openai.com/v1',
    baseUrlEnvVar: 'OPENAI_BASE_URL',
  },
  google: {
    kind: 'google',
    envVars: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
    keyRequired: true,
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  },
  mock: { kind: 'mock', envVars: [], keyRequired: false },
  openrouter: {
    kind: 'openai-compatible',
    envVars: ['OPENROUTER_API_KEY'],
    keyRequired: true,
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
  },
  ollama: {
    kind: 'openai-compatible',
    envVars: ['OLLAMA_API_KEY'],
    keyRequired: false,
    defaultBaseUrl: 'http://localhost:11434/v1',
  },
  litellm: {
    kind: 'openai-compatible',
    envVars: ['LITELLM_API_KEY'],
    keyRequired: false,
    defaultBaseUrl: 'http://localhost:4000/v1',
  },
  togetherai: { kind: 'package', envVars: ['TOGETHER_AI_API_KEY'], keyRequired: true },
  // NOTE: these authenticate with cloud credentials (AWS profile, Google ADC) that their SDKs find
  // themselves; snodo has no key to check.
  'amazon-bedrock': { kind: 'package', envVars: [], keyRequired: false },
  'google-vertex': { kind: 'package', envVars: [], keyRequired: false },
};

/** The default API-key variable for a provider name: `my-proxy` → `MY_PROXY_API_KEY`. */
export function defaultEnvVar(provider: string): string {
  return `${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`;
}

/**
 * How to reach `provider`. A configured `base_url` turns any provider other than the three with their own
 * client into an OpenAI-compatible endpoint whose key is optional (local servers often have none).
 */
export function describeProvider(provider: string, configuredBaseUrl: string | undefined): KnownProvider {
  const known = KNOWN_PROVIDERS[provider];
  const ownClient = known?.kind === 'anthropic' || known?.kind === 'openai' || known?.kind === 'google';
  if (known?.kind === 'mock' || ownClient) return known;
  if (configuredBaseUrl !== undefined && configuredBaseUrl !== '') {
    return {
      kind: 'openai-compatible',
      envVars: known?.envVars ?? [defaultEnvVar(provider)],
      keyRequired: known?.kind === 'openai-compatible' ? known.keyRequired : false,
    };
  }
  return known ?? { kind: 'package', envVars: [defaultEnvVar(provider)], keyRequired: true };
}

/**
 * What help texts name as examples, so packages that must not name providers themselves (core) can show
 * real ones: a few provider names and a model string a new user can copy.
 */
export const PROVIDER_EXAMPLES = {
  providers: ['anthropic', 'openai'],
  model: 'anthropic/claude-sonnet-4-5',
} as const;
