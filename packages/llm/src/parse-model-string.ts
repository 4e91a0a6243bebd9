import { LlmModelStringInvalidError } from './errors/llm-model-string-invalid-error.js';

/** A model string split into the provider that serves it and the id that provider knows it by. */
export interface ParsedModelString {
  /**
   * The provider name, lower case: a built-in (`anthropic`, `openai`, `google`, `mock`), an AI SDK package
   * name (`groq` for `@ai-sdk/groq`), or a name configured with a `base_url` (`litellm`, `ollama`…).
   */
  readonly provider: string;
  /** The provider's model id, as written (`claude-sonnet-4-5`, `anthropic/claude-sonnet-4.5` for OpenRouter). */
  readonly modelId: string;
}

/** Provider aliases: LiteLLM spells Google `gemini/`, snodo accepts both. */
const PROVIDER_ALIASES: Readonly<Record<string, string>> = { gemini: 'google' };

/** Bare-name prefixes and the provider they route to (SPEC §4.3 step 4), checked in order. */
const BARE_NAME_ROUTES: readonly (readonly [prefix: string, provider: string])[] = [
  ['gpt', 'openai'],
  ['o1', 'openai'],
  ['o3', 'openai'],
  ['o4', 'openai'],
  ['claude', 'anthropic'],
  ['gemini', 'google'],
];

const PROVIDER_NAME = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * Reads a model string. The first `/` separates provider and model id; the rest may hold more slashes
 * (`openrouter/anthropic/claude-sonnet-4.5`, `litellm/openai/gpt-4o`). A bare name routes by prefix:
 * `gpt*`, `o1*`, `o3*`, `o4*` → openai, `claude*` → anthropic, `gemini*` → google. `gemini/` is an alias
 * of `google/`.
 *
 * Called by `resolveModel`, the price lookup, and core when it records which model a role uses.
 *
 * @throws {LlmModelStringInvalidError} for an empty string, an empty side of the `/`, a provider name with
 *   characters other than letters, digits, `.`, `_`, `-`, or a bare name that routes nowhere.
 */
export function parseModelString(modelString: string): ParsedModelString {
  const trimmed = modelString.trim();
  if (trimmed === '') {
    throw new LlmModelStringInvalidError({ modelString, reason: 'it is empty' });
  }
  const slash = trimmed.indexOf('/');
  if (slash === -1) return routeBareName(modelString, trimmed);

  const providerName = trimmed.slice(0, slash).toLowerCase();
  const modelId = trimmed.slice(slash + 1);
  if (providerName === '') {
    throw new LlmModelStringInvalidError({ modelString, reason: 'the provider before "/" is empty' });
  }
  if (!PROVIDER_NAME.test(providerName)) {
    throw new LlmModelStringInvalidError({
      modelString,
      reason: `the provider "${providerName}" may only hold letters, digits, ".", "_" and "-"`,
    });
  }
  if (modelId === '') {
    throw new LlmModelStringInvalidError({ modelString, reason: 'the model id after "/" is empty' });
  }
  return { provider: PROVIDER_ALIASES[providerName] ?? providerName, modelId };
}

/** Routes a name without a provider by its prefix. */
function routeBareName(modelString: string, name: string): ParsedModelString {
  const lower = name.toLowerCase();
  for (const [prefix, provider] of BARE_NAME_ROUTES) {
    if (lower.startsWith(prefix)) return { provider, modelId: name };
  }
  throw new LlmModelStringInvalidError({
    modelString,
    reason: 'it has no provider prefix and its name does not say which provider serves it',
  });
}

/** Joins a parsed model string back into its canonical `provider/modelId` form. */
export function formatModelString(parsed: ParsedModelString): string {
  return `${parsed.provider}/${parsed.modelId}`;
}
