import { createHash } from 'node:crypto';
import type { FakeLlmDialect } from './dialect.js';
import { estimateTokens, type PromptSegments } from './prompt-segments.js';

/** What the prompt cache made of one request; recorded with it (`FakeLlmRecordedRequest.promptCache`). */
export interface PromptCacheAccount {
  /** Every prompt token of the request (estimated: characters / 4). */
  readonly promptTokens: number;
  /** Prompt tokens read from the cache. */
  readonly readTokens: number;
  /** Prompt tokens written to the cache (Anthropic only; OpenAI and Gemini do not bill writes). */
  readonly writeTokens: number;
}

/** A request's account, and the step that makes its prompt visible to later requests once it is answered. */
export interface PendingPromptCacheAccount {
  readonly account: PromptCacheAccount;
  /** Stores the prompt's cacheable prefixes; called once the answer has been sent, as a provider does. */
  remember(): void;
}

/** The shortest prefix any of the three providers caches (Anthropic's Sonnet/Opus, OpenAI, Gemini Flash). */
export const MIN_CACHEABLE_TOKENS = 1_024;
/** OpenAI counts cache hits beyond the first 1,024 tokens in steps of 128. */
const OPENAI_CACHE_STEP = 128;
/** Prompts remembered per model for OpenAI's and Gemini's automatic caching. */
const REMEMBERED_PROMPTS = 64;

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function commonPrefixLength(left: string, right: string): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left.charCodeAt(index) === right.charCodeAt(index)) index += 1;
  return index;
}

/**
 * The fake LLM's prompt cache, one per server instance, accounting like each provider:
 *
 * - Anthropic caches only up to explicit `cache_control` breakpoints. The longest breakpoint prefix seen
 *   before (same model) is read; the rest up to the last breakpoint is written; the remainder is plain
 *   input. A prefix under 1,024 tokens is neither read nor written, as Anthropic silently skips it.
 *   Simplified: hits are looked up at breakpoints only, not at the earlier block boundaries Anthropic
 *   also tries.
 * - OpenAI (Chat Completions and Responses) caches every prompt automatically: the longest prefix shared
 *   with an earlier prompt of the same model is read once it reaches 1,024 tokens, counted in 128-token
 *   steps. No write is reported.
 * - Gemini's implicit caching reads a shared prefix of 1,024 tokens or more; no write is reported.
 *
 * A prompt becomes readable only once its answer has been sent (`remember`), so requests sent at the same
 * time all miss, as they do with the real providers: that is why snodo warms the cache with one judge.
 */
export class FakePromptCache {
  readonly #anthropicPrefixes = new Set<string>();
  readonly #promptsByModel = new Map<string, string[]>();

  /** Accounts one request's prompt against the prompts answered before it. */
  account(dialect: FakeLlmDialect, model: string, segments: PromptSegments): PendingPromptCacheAccount {
    const promptTokens = estimateTokens(segments.text);
    if (dialect === 'anthropic') return this.#anthropic(model, segments, promptTokens);
    const key = `${dialect === 'gemini' ? 'gemini' : 'openai'}\u0000${model}`;
    const seen = this.#promptsByModel.get(key) ?? [];
    let shared = 0;
    for (const earlier of seen) shared = Math.max(shared, commonPrefixLength(earlier, segments.text));
    const remember = () => {
      seen.push(segments.text);
      if (seen.length > REMEMBERED_PROMPTS) seen.shift();
      this.#promptsByModel.set(key, seen);
    };
    return { account: this.#automatic(dialect, shared, promptTokens), remember };
  }

  #automatic(dialect: FakeLlmDialect, shared: number, promptTokens: number): PromptCacheAccount {
    const sharedTokens = Math.min(Math.floor(shared / 4), promptTokens);
    if (sharedTokens < MIN_CACHEABLE_TOKENS) return { promptTokens, readTokens: 0, writeTokens: 0 };
    const readTokens =
      dialect === 'gemini'
        ? sharedTokens
        : MIN_CACHEABLE_TOKENS +
          Math.floor((sharedTokens - MIN_CACHEABLE_TOKENS) / OPENAI_CACHE_STEP) * OPENAI_CACHE_STEP;
    return { promptTokens, readTokens, writeTokens: 0 };
  }

  #anthropic(model: string, segments: PromptSegments, promptTokens: number): PendingPromptCacheAccount {
    const prefixes = segments.breakpoints
      .map((end) => ({ end, tokens: estimateTokens(segments.text.slice(0, end)) }))
      .filter((prefix) => prefix.tokens >= MIN_CACHEABLE_TOKENS)
      .map((prefix) => ({ ...prefix, key: `${model}\u0000${digest(segments.text.slice(0, prefix.end))}` }));
    const last = prefixes.at(-1);
    if (last === undefined) {
      return { account: { promptTokens, readTokens: 0, writeTokens: 0 }, remember: () => undefined };
    }
    let readTokens = 0;
    for (const prefix of prefixes) {
      if (this.#anthropicPrefixes.has(prefix.key)) readTokens = Math.max(readTokens, prefix.tokens);
    }
    const writeTokens = Math.max(0, last.tokens - readTokens);
    const remember = () => {
      for (const prefix of prefixes) this.#anthropicPrefixes.add(prefix.key);
    };
    return { account: { promptTokens, readTokens, writeTokens }, remember };
  }
}
