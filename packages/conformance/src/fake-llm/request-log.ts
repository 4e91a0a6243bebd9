import type { IncomingHttpHeaders } from 'node:http';
import type { FakeLlmDialect } from './dialect.js';
import type { FakeLlmOperation } from './fake-llm-routes.js';
import type { PromptCacheAccount } from './fake-prompt-cache.js';
import { stringLeaves } from './json-values.js';

/** What was recorded about one request; tests read these through `FakeLlm.requests`. */
export interface FakeLlmRecordedRequest {
  /** Zero-based arrival order among all requests. */
  index: number;
  /** The wire protocol, when the path matched one. */
  dialect: FakeLlmDialect | undefined;
  /** What the request asked for; `unknown` for a path that matched no route. */
  operation: FakeLlmOperation;
  /** HTTP method. */
  method: string;
  /** URL path, e.g. `/v1/messages`. */
  path: string;
  /** Query parameters (`key` redacted), e.g. `{ beta: 'true' }` or `{ alt: 'sse' }`. */
  query: Record<string, string>;
  /** Request headers, lower-case; credentials (authorization, x-api-key, x-goog-api-key…) are `[redacted]`. */
  headers: Record<string, string>;
  /** Whether the request carried any credential (header or `key` query parameter). Any value is accepted. */
  hasCredentials: boolean;
  /** The parsed JSON body; `undefined` when there was none or it was not JSON. */
  body: unknown;
  /** The model id asked for, if any. */
  model: string | undefined;
  /** Whether the client asked for a stream. */
  stream: boolean;
  /** True for side requests (titles, summaries, routing checks, token counts, model lists). */
  side: boolean;
  /** The side-request rule that matched (e.g. `title`, `count-tokens`), if any. */
  sideRule: string | undefined;
  /** Index of the scripted turn this request consumed, if it consumed one. */
  turnIndex: number | undefined;
  /** True when a main request arrived after the script ran out and got the final text. */
  exhausted: boolean;
  /** Why the next turn could not be served to this request (answered with a 500; the turn stays queued). */
  problem: string | undefined;
  /** How a `writeFile` turn was mapped (`write-tool`, `apply-patch`, `shell`…), if it was one. */
  writeStrategy: string | undefined;
  /** Names of the tools the request declared. */
  toolNames: string[];
  /** What the prompt cache made of the request (`promptCache: true` servers, generation requests). */
  promptCache: PromptCacheAccount | undefined;
  /** HTTP status sent, once the answer has started; `undefined` while pending or hanging. */
  status: number | undefined;
}

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
]);

/** Header map with credentials replaced by `[redacted]`, and whether any credential was present. */
export function redactHeaders(headers: IncomingHttpHeaders): {
  headers: Record<string, string>;
  hasCredentials: boolean;
} {
  const result: Record<string, string> = {};
  let hasCredentials = false;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (CREDENTIAL_HEADERS.has(name)) {
      hasCredentials ||= text.length > 0;
      result[name] = '[redacted]';
    } else {
      result[name] = text;
    }
  }
  return { headers: result, hasCredentials };
}

/** Query map with an API `key` parameter replaced by `[redacted]`, and whether it was present. */
export function redactQuery(parameters: URLSearchParams): { query: Record<string, string>; hasKey: boolean } {
  const query: Record<string, string> = {};
  let hasKey = false;
  for (const [name, value] of parameters) {
    if (name === 'key') {
      hasKey = value.length > 0;
      query[name] = '[redacted]';
    } else {
      query[name] = value;
    }
  }
  return { query, hasKey };
}

/** Whether any string inside the recorded body contains `text`. */
export function requestContains(request: FakeLlmRecordedRequest, text: string): boolean {
  return stringLeaves(request.body).some((leaf) => leaf.includes(text));
}
