import type { FakeLlm } from '@snodo/conformance/fake-llm';
import type { ProvidersSettings } from '@snodo/llm';

// Test support only: how the direct coders reach the fake LLM in each wire protocol a provider uses.

/** One way a provider is reached, pointed at the fake LLM. */
export interface DialectCase {
  /** A name for the test title. */
  readonly name: string;
  /** The fake's dialect the requests must arrive in. */
  readonly dialect: 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';
  /** The coding model. */
  readonly model: string;
  /** The pinned coder that serves this model, when one does. */
  readonly pinnedCoder: 'openai' | 'anthropic' | 'gemini' | undefined;
  /** `providers` config pointing the provider at the fake. */
  providers(fake: FakeLlm): ProvidersSettings;
  /** The coder's environment (its key). */
  readonly env: Readonly<Record<string, string>>;
  /** A fetch that redirects a provider's default endpoint to the fake, when config cannot repoint it. */
  fetch?(fake: FakeLlm): typeof globalThis.fetch;
}

/** OpenAI's own endpoint speaks Responses; the only way to reach the fake there is to redirect fetch. */
function redirectOpenAi(fake: FakeLlm): typeof globalThis.fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return fetch(url.replace('https://api.openai.com/v1', fake.sdkBaseUrl.openai), init);
  };
}

export const DIALECT_CASES: readonly DialectCase[] = [
  {
    name: 'an OpenAI-compatible endpoint (providers.fake.base_url, Chat Completions)',
    dialect: 'openai-chat',
    model: 'fake/coder-model',
    pinnedCoder: undefined,
    providers: (fake) => ({ fake: { base_url: fake.sdkBaseUrl.openai } }),
    env: {},
  },
  {
    name: 'OpenAI through a base_url (Chat Completions)',
    dialect: 'openai-chat',
    model: 'openai/gpt-4o',
    pinnedCoder: 'openai',
    providers: (fake) => ({ openai: { base_url: fake.sdkBaseUrl.openai } }),
    env: { OPENAI_API_KEY: 'sk-test-openai' },
  },
  {
    name: 'OpenAI on its default endpoint (Responses)',
    dialect: 'openai-responses',
    model: 'openai/gpt-4o',
    pinnedCoder: 'openai',
    providers: () => ({}),
    env: { OPENAI_API_KEY: 'sk-test-openai' },
    fetch: redirectOpenAi,
  },
  {
    name: 'Anthropic Messages',
    dialect: 'anthropic',
    model: 'anthropic/claude-sonnet-4-5',
    pinnedCoder: 'anthropic',
    providers: (fake) => ({ anthropic: { base_url: fake.sdkBaseUrl.anthropic } }),
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
  },
  {
    name: 'Gemini generateContent',
    dialect: 'gemini',
    model: 'gemini/gemini-2.5-pro',
    pinnedCoder: 'gemini',
    providers: (fake) => ({ gemini: { base_url: fake.sdkBaseUrl.gemini } }),
    env: { GEMINI_API_KEY: 'gemini-test-key' },
  },
];

/** Every string inside the tool results of a request body, whatever the dialect calls them. */
export function toolResultTexts(body: unknown): string[] {
  const found: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') found.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    // Chat: role tool. Anthropic: tool_result. Responses: function_call_output. Gemini: functionResponse.
    if (node.role === 'tool' || node.type === 'tool_result' || node.type === 'function_call_output') {
      collect(node);
      return;
    }
    if ('functionResponse' in node) {
      collect(node.functionResponse);
      return;
    }
    Object.values(node).forEach(walk);
  };
  walk(body);
  return found;
}
