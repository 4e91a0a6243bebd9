import { LlmError } from './llm-error.js';

const name = 'LlmProviderNotInstalledError';
const marker = 'snodo.error.LLM_PROVIDER_NOT_INSTALLED';
const symbol = Symbol.for(marker);

/**
 * A model string names a provider that is not built in, has no `base_url` in config, and whose AI SDK
 * package (`@ai-sdk/<name>`) cannot be imported. The message says how to install the package, and how to
 * reach the provider as an OpenAI-compatible endpoint instead.
 */
export class LlmProviderNotInstalledError extends LlmError {
  /** The provider name from the model string (`groq`). */
  readonly provider: string;
  /** The npm package that would provide it (`@ai-sdk/groq`). */
  readonly packageName: string;

  constructor(options: { provider: string; packageName: string; cause?: unknown }) {
    const { provider, packageName } = options;
    super('LLM_PROVIDER_NOT_INSTALLED', {
      message:
        `Provider "${provider}" needs the package ${packageName}, which is not installed; ` +
        `install it: pnpm add ${packageName} (or npm i ${packageName}). ` +
        `If "${provider}" is an OpenAI-compatible endpoint (a LiteLLM proxy, vLLM, Ollama…), set ` +
        `providers.${provider}.base_url in snodo's config instead.`,
      cause: options.cause,
    });
    this.name = name;
    Object.defineProperty(this, symbol, { value: true });
    this.provider = provider;
    this.packageName = packageName;
  }

  static override isInstance(value: unknown): value is LlmProviderNotInstalledError {
    return LlmError.hasMarker(value, marker);
  }
}
