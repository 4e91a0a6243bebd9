/**
 * Environment variables as a plain map. Library functions take it as an argument instead of reading
 * `process.env`, so a caller (core, a test) decides exactly which variables a model call can see.
 */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * One entry of `providers.<name>` in snodo's config (`$SNODO_HOME/config.yml`), with the config's own key
 * names. Core reads the file and passes the section through unchanged.
 */
export interface ProviderSettings {
  /** The API key stored by `snodo config add <provider> <key>`. Wins over the environment. */
  readonly api_key?: string | undefined;
  /** The environment variable holding the key, replacing the provider's default variable(s). */
  readonly api_key_env?: string | undefined;
  /**
   * The endpoint's base URL, ending before the API path (`http://localhost:4000/v1` for a LiteLLM proxy).
   * On `anthropic`, `openai` and `google` it repoints their own client; on any other provider it makes the
   * provider an OpenAI-compatible endpoint (LiteLLM proxy, vLLM, Ollama, OpenRouter…).
   */
  readonly base_url?: string | undefined;
}

/** The `providers` section of snodo's config: provider name → its settings. */
export type ProvidersSettings = Readonly<Record<string, ProviderSettings>>;

/**
 * A price override for one model, in US dollars per million tokens, with the config's own key names.
 * Fields left out keep the catalog's price; for a model the catalog lacks, `input` and `output` are needed
 * and cache prices default to the input price.
 */
export interface ModelPriceOverride {
  /** Price of a million uncached input tokens. */
  readonly input?: number | undefined;
  /** Price of a million output tokens. */
  readonly output?: number | undefined;
  /** Price of a million input tokens read from the provider's cache. */
  readonly cache_read?: number | undefined;
  /** Price of a million input tokens written to the provider's cache. */
  readonly cache_write?: number | undefined;
}

/** Price overrides keyed by model string (`anthropic/claude-sonnet-4-5`) or bare model id (`my-model`). */
export type PriceOverrides = Readonly<Record<string, ModelPriceOverride>>;

/**
 * Everything a model call needs besides its own arguments: the config sections that concern models, the
 * environment, and where optional provider packages may be found. Core builds it once from config and
 * passes it to every call.
 */
export interface LlmSettings {
  /** `providers.<name>` from config. */
  readonly providers?: ProvidersSettings | undefined;
  /**
   * The environment to read API keys and `*_BASE_URL` variables from. Default: `process.env` (the one
   * documented place this package reads it).
   */
  readonly env?: Environment | undefined;
  /** Price overrides from config; they win over the committed catalog. */
  readonly prices?: PriceOverrides | undefined;
  /**
   * Directories from which an optional `@ai-sdk/<name>` package may be resolved when a plain `import()`
   * from this package cannot see it (pnpm keeps dependencies private). Default: `[process.cwd()]`.
   */
  readonly resolveFrom?: readonly string[] | undefined;
  /** A `fetch` replacement handed to every provider (proxies, recording). Default: the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
}
