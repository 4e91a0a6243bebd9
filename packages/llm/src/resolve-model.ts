import type { LanguageModelV3 } from '@ai-sdk/provider';
import { LlmCredentialsMissingError } from './errors/llm-credentials-missing-error.js';
import { LlmModelStringInvalidError } from './errors/llm-model-string-invalid-error.js';
import { LlmProviderNotInstalledError } from './errors.js';
import { describeProvider, type KnownProvider } from './known-providers.js';
import type { Environment, LlmSettings } from './llm-settings.js';
import { findProviderFactory, loadProviderPackage } from './load-provider-package.js';
import { createMockModel, isMockModelId } from './mock-model.js';
import { formatModelString, type ParsedModelString, parseModelString } from './parse-model-string.js';
import { findProviderSettings, loadCredentials, type ProviderCredentials } from './resolve-credentials.js';

/**
 * The wire protocol a resolved model speaks. Recorded with the model so a failure report (and the fake LLM
 * server in tests) can tell which endpoint was called.
 */
export type ModelApi =
  | 'anthropic-messages'
  | 'openai-responses'
  | 'openai-chat'
  | 'google-generative-ai'
  | 'openai-compatible-chat'
  | 'ai-sdk-package'
  | 'mock';

/**
 * A model string turned into an AI SDK model object, with everything snodo records about it. Returned by
 * `resolveModel`; `generateVerdict`, `generateStructured` and the litellm coder accept it in place of a
 * model string.
 */
export interface ResolvedModel {
  /** The AI SDK model object; never a plain string id (those go to the Vercel AI Gateway). */
  readonly model: LanguageModelV3;
  /** The provider name (`anthropic`, `litellm`, `mock`). */
  readonly provider: string;
  /** The provider's model id (`claude-sonnet-4-5`). */
  readonly modelId: string;
  /** The canonical model string, `provider/modelId`, as recorded in the audit log and `state.json`. */
  readonly modelString: string;
  /** The wire protocol used. */
  readonly api: ModelApi;
  /** The endpoint, when snodo chose it (`undefined` for optional packages and the mock). */
  readonly baseUrl: string | undefined;
  /** Where the endpoint came from: config `base_url`, a `*_BASE_URL` variable, or the provider default. */
  readonly baseUrlSource: 'config' | 'environment' | 'default' | undefined;
  /** Where the API key came from, without the key. */
  readonly credentials: ProviderCredentials;
}

/**
 * Turns a model string into an AI SDK model, choosing the client by provider:
 * - `anthropic`, `openai`, `google`: their own AI SDK packages. A `base_url` (config, then
 *   `ANTHROPIC_BASE_URL` / `OPENAI_BASE_URL` in `settings.env`) repoints them. OpenAI uses the Responses
 *   API on api.openai.com and Chat Completions on any other base URL, because proxies and
 *   OpenAI-compatible servers implement Chat Completions and seldom Responses.
 * - any other provider with a `base_url` in config, and the presets `openrouter`, `ollama`, `litellm`:
 *   `@ai-sdk/openai-compatible` with usage in streams and JSON-schema structured output.
 * - `mock`: `mock/pass`, `mock/warn`, `mock/blocker`, offline.
 * - anything else: the optional package `@ai-sdk/<provider>`, imported on demand.
 *
 * Called by core for each role's model and by the litellm coder. Makes no request.
 *
 * @throws {LlmModelStringInvalidError} for a malformed model string or an unknown `mock/` variant.
 * @throws {LlmProviderNotInstalledError} when the optional package is missing.
 * @throws {LlmCredentialsMissingError} when the provider needs a key and none is configured.
 */
export async function resolveModel(
  model: string | ParsedModelString,
  settings: LlmSettings = {},
): Promise<ResolvedModel> {
  const parsed = typeof model === 'string' ? parseModelString(model) : model;
  const { provider, modelId } = parsed;
  const modelString = formatModelString(parsed);
  const providerSettings = findProviderSettings(provider, settings);
  const description = describeProvider(provider, providerSettings?.base_url);
  const env: Environment = settings.env ?? process.env;

  if (description.kind === 'mock') {
    if (!isMockModelId(modelId)) {
      throw new LlmModelStringInvalidError({
        modelString: typeof model === 'string' ? model : modelString,
        reason: 'the mock provider serves only mock/pass, mock/warn and mock/blocker',
      });
    }
    const credentials: ProviderCredentials = {
      provider,
      source: 'none',
      envVar: undefined,
      envVars: [],
      required: false,
    };
    return {
      model: createMockModel(modelId),
      provider,
      modelId,
      modelString,
      api: 'mock',
      baseUrl: undefined,
      baseUrlSource: undefined,
      credentials,
    };
  }

  // An optional package is loaded before credentials are checked: installing it is the first fix.
  const packageModule =
    description.kind === 'package'
      ? await loadProviderPackage(provider, settings.resolveFrom ?? [process.cwd()])
      : undefined;

  const { credentials, apiKey } = loadCredentials(provider, settings);
  if (credentials.required && apiKey === undefined) {
    throw new LlmCredentialsMissingError({ provider, envVars: credentials.envVars });
  }

  const endpoint = chooseEndpoint(description, providerSettings?.base_url, env);
  const common = { credentials, provider, modelId, modelString, ...endpoint };
  const fetchOption = settings.fetch === undefined ? {} : { fetch: settings.fetch };

  switch (description.kind) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const client = createAnthropic({ apiKey, baseURL: endpoint.baseUrl, ...fetchOption });
      return { ...common, model: client.languageModel(modelId), api: 'anthropic-messages' };
    }
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const client = createOpenAI({ apiKey, baseURL: endpoint.baseUrl, ...fetchOption });
      return endpoint.baseUrl === description.defaultBaseUrl
        ? { ...common, model: client.responses(modelId), api: 'openai-responses' }
        : { ...common, model: client.chat(modelId), api: 'openai-chat' };
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      const client = createGoogleGenerativeAI({ apiKey, baseURL: endpoint.baseUrl, ...fetchOption });
      return { ...common, model: client.languageModel(modelId), api: 'google-generative-ai' };
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const client = createOpenAICompatible({
        name: provider,
        baseURL: endpoint.baseUrl ?? '',
        ...(apiKey === undefined ? {} : { apiKey }),
        includeUsage: true,
        supportsStructuredOutputs: true,
        ...fetchOption,
      });
      return { ...common, model: client.chatModel(modelId), api: 'openai-compatible-chat' };
    }
    case 'package': {
      const factory = packageModule === undefined ? undefined : findProviderFactory(packageModule, provider);
      if (factory === undefined) {
        throw new LlmProviderNotInstalledError({
          provider,
          packageName: `@ai-sdk/${provider}`,
          cause: new Error(`@ai-sdk/${provider} exports no create* provider factory`),
        });
      }
      const client = factory({ ...(apiKey === undefined ? {} : { apiKey }), ...fetchOption });
      return { ...common, model: languageModelOf(client, modelId, provider), api: 'ai-sdk-package' };
    }
  }
}

/** The base URL and its source: config first, then the provider's own `*_BASE_URL` variable, then the default. */
function chooseEndpoint(
  description: KnownProvider,
  configured: string | undefined,
  env: Environment,
): Pick<ResolvedModel, 'baseUrl' | 'baseUrlSource'> {
  const trimmed = configured?.trim();
  if (trimmed !== undefined && trimmed !== '')
    return { baseUrl: stripSlash(trimmed), baseUrlSource: 'config' };
  const fromEnv =
    description.baseUrlEnvVar === undefined ? undefined : env[description.baseUrlEnvVar]?.trim();
  if (fromEnv !== undefined && fromEnv !== '')
    return { baseUrl: stripSlash(fromEnv), baseUrlSource: 'environment' };
  if (description.defaultBaseUrl !== undefined) {
    return { baseUrl: description.defaultBaseUrl, baseUrlSource: 'default' };
  }
  return { baseUrl: undefined, baseUrlSource: undefined };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Gets a language model from a provider object of an optional package (`provider.languageModel(id)` or `provider(id)`). */
function languageModelOf(client: unknown, modelId: string, provider: string): LanguageModelV3 {
  const candidate = client as { languageModel?: (id: string) => LanguageModelV3 } & ((
    id: string,
  ) => LanguageModelV3);
  if (typeof candidate?.languageModel === 'function') return candidate.languageModel(modelId);
  if (typeof candidate === 'function') return candidate(modelId);
  throw new LlmProviderNotInstalledError({
    provider,
    packageName: `@ai-sdk/${provider}`,
    cause: new Error(`@ai-sdk/${provider} returned a provider without languageModel()`),
  });
}
