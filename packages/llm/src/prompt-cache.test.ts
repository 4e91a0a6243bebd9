import { describe, expect, it } from 'vitest';
import { buildPromptCacheRequest } from './prompt-cache.js';

const prompt = { prompt: 'SHARED-then-mine', sharedPrefix: 'SHARED-', cacheKey: 'snodo-j_1-abc' };

describe('buildPromptCacheRequest', () => {
  it('Anthropic: two text parts, the breakpoint on the shared one, no call-level options', () => {
    const request = buildPromptCacheRequest(prompt, 'anthropic-messages');
    expect(request.userMessage).toEqual({
      role: 'user',
      content: [
        {
          type: 'text',
          text: 'SHARED-',
          providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        },
        { type: 'text', text: 'then-mine' },
      ],
    });
    expect(request.providerOptions).toBeUndefined();
  });

  it('OpenAI (Responses and Chat): one string and the cache key', () => {
    for (const api of ['openai-responses', 'openai-chat'] as const) {
      const request = buildPromptCacheRequest(prompt, api);
      expect(request.userMessage).toEqual({ role: 'user', content: 'SHARED-then-mine' });
      expect(request.providerOptions).toEqual({ openai: { promptCacheKey: 'snodo-j_1-abc' } });
    }
  });

  it('Gemini and OpenAI-compatible servers: one string, nothing else (their caching needs only the same prefix)', () => {
    for (const api of ['google-generative-ai', 'openai-compatible-chat', 'mock'] as const) {
      expect(buildPromptCacheRequest(prompt, api)).toEqual({
        userMessage: { role: 'user', content: 'SHARED-then-mine' },
        providerOptions: undefined,
      });
    }
  });

  it('refuses a prompt that does not start with its shared prefix', () => {
    expect(() =>
      buildPromptCacheRequest({ prompt: 'mine', sharedPrefix: 'SHARED' }, 'anthropic-messages'),
    ).toThrow(/must start with its sharedPrefix/);
  });
});
