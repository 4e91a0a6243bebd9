import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import type { ModelApi } from './resolve-model.js';

/**
 * A prompt whose leading part other calls send too (the judges of one gate phase share the task, the diff
 * and the command results), so a provider's prompt cache can serve that part to every call but the first.
 */
export interface CacheablePrompt {
  /** The whole user message. */
  readonly prompt: string;
  /** The leading part of `prompt` that other calls share byte for byte; `prompt` must start with it. */
  readonly sharedPrefix?: string | undefined;
  /** A key naming the shared part, for providers that route cached prompts by a key (OpenAI). */
  readonly cacheKey?: string | undefined;
}

/** The user message and the call's provider options that ask a provider to cache a prompt's shared part. */
export interface PromptCacheRequest {
  /** The user message: the prompt, split after the shared part where the provider takes a breakpoint. */
  readonly userMessage: ModelMessage;
  /** Call-level provider options (OpenAI's `promptCacheKey`), or `undefined`. */
  readonly providerOptions: SharedV3ProviderOptions | undefined;
}

/** Anthropic caches up to an explicit breakpoint; `ephemeral` is its five-minute cache (writes 1.25×). */
const ANTHROPIC_BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

/**
 * How each provider is asked to cache the shared part of a prompt:
 * - Anthropic Messages: the user message becomes two text parts, with a cache breakpoint
 *   (`cache_control: ephemeral`) on the first, so tools, system and the shared part are cached together;
 * - OpenAI (Responses and Chat Completions): prefixes of 1,024 tokens or more are cached automatically;
 *   `promptCacheKey` routes the calls that share one to the same cache;
 * - Gemini and the rest: the prompt goes as one string. Gemini caches a repeated prefix implicitly, and
 *   OpenAI-compatible servers may not accept a message made of parts.
 *
 * Every form sends the same bytes in the same order, so the shared part stays a byte-identical prefix.
 *
 * @throws {TypeError} when `prompt` does not start with `sharedPrefix` (a caller's bug, not bad input).
 */
export function buildPromptCacheRequest(prompt: CacheablePrompt, api: ModelApi): PromptCacheRequest {
  const shared = prompt.sharedPrefix ?? '';
  if (!prompt.prompt.startsWith(shared)) {
    throw new TypeError('buildPromptCacheRequest: the prompt must start with its sharedPrefix');
  }
  const cacheKey = prompt.cacheKey?.trim() ?? '';
  const providerOptions =
    cacheKey !== '' && (api === 'openai-responses' || api === 'openai-chat')
      ? { openai: { promptCacheKey: cacheKey } }
      : undefined;
  if (shared === '' || api !== 'anthropic-messages') {
    return { userMessage: { role: 'user', content: prompt.prompt }, providerOptions };
  }
  const suffix = prompt.prompt.slice(shared.length);
  return {
    userMessage: {
      role: 'user',
      content: [
        { type: 'text', text: shared, providerOptions: ANTHROPIC_BREAKPOINT },
        ...(suffix === '' ? [] : [{ type: 'text' as const, text: suffix }]),
      ],
    },
    providerOptions,
  };
}
