import type { FakeLlmDialect } from './dialect.js';

/** What a request asks the fake LLM to do. */
export type FakeLlmOperation = 'generate' | 'count-tokens' | 'list-models' | 'unknown';

/** A request path matched to a dialect and an operation. */
export interface MatchedRoute {
  /** The wire protocol; `undefined` for the OpenAI-style model list. */
  dialect: FakeLlmDialect | undefined;
  /** What is asked. */
  operation: Exclude<FakeLlmOperation, 'unknown'>;
  /** Gemini: the model id from the path. */
  pathModel?: string;
  /** Gemini: whether the path asks for a stream. */
  pathStream?: boolean;
  /** For `list-models`: which list shape to answer with. */
  listStyle?: 'openai' | 'gemini';
}

interface RouteDefinition {
  method: 'GET' | 'POST';
  pattern: RegExp;
  /** How the route reads in the 404 listing. */
  shows: string;
  route(match: RegExpExecArray): MatchedRoute;
}

/**
 * Every route the fake LLM answers. OpenAI and Anthropic paths work with and without the `/v1` prefix,
 * because clients disagree on whether the base URL includes it.
 */
const ROUTES: readonly RouteDefinition[] = [
  {
    method: 'POST',
    pattern: /^(?:\/v1)?\/chat\/completions\/?$/,
    shows: 'POST /v1/chat/completions (OpenAI Chat Completions)',
    route: () => ({ dialect: 'openai-chat', operation: 'generate' }),
  },
  {
    method: 'POST',
    pattern: /^(?:\/v1)?\/responses\/?$/,
    shows: 'POST /v1/responses (OpenAI Responses)',
    route: () => ({ dialect: 'openai-responses', operation: 'generate' }),
  },
  {
    method: 'POST',
    pattern: /^(?:\/v1)?\/messages\/?$/,
    shows: 'POST /v1/messages[?beta=true] (Anthropic Messages)',
    route: () => ({ dialect: 'anthropic', operation: 'generate' }),
  },
  {
    method: 'POST',
    pattern: /^(?:\/v1)?\/messages\/count_tokens\/?$/,
    shows: 'POST /v1/messages/count_tokens (Anthropic token count)',
    route: () => ({ dialect: 'anthropic', operation: 'count-tokens' }),
  },
  {
    method: 'POST',
    pattern: /^\/(?:v1|v1beta|v1alpha)\/models\/(.+):(generateContent|streamGenerateContent|countTokens)$/,
    shows:
      'POST /v1beta/models/{model}:generateContent | :streamGenerateContent[?alt=sse] | :countTokens (Gemini)',
    route: (match) => ({
      dialect: 'gemini',
      operation: match[2] === 'countTokens' ? 'count-tokens' : 'generate',
      pathModel: decodeURIComponent(match[1] ?? 'fake-model'),
      pathStream: match[2] === 'streamGenerateContent',
    }),
  },
  {
    method: 'GET',
    pattern: /^(?:\/v1)?\/models\/?$/,
    shows: 'GET /v1/models (OpenAI / Anthropic model list)',
    route: () => ({ dialect: undefined, operation: 'list-models', listStyle: 'openai' }),
  },
  {
    method: 'GET',
    pattern: /^\/(?:v1beta|v1alpha)\/models\/?$/,
    shows: 'GET /v1beta/models (Gemini model list)',
    route: () => ({ dialect: 'gemini', operation: 'list-models', listStyle: 'gemini' }),
  },
];

/** The route for this method and path, if any. */
export function matchRoute(method: string | undefined, pathname: string): MatchedRoute | undefined {
  for (const definition of ROUTES) {
    if (definition.method !== method) continue;
    const match = definition.pattern.exec(pathname);
    if (match !== null) return definition.route(match);
  }
  return undefined;
}

/** One line per route, for the 404 answer. */
export function describeRoutes(): string[] {
  return ROUTES.map((definition) => definition.shows);
}
