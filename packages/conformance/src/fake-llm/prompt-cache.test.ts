import { afterEach, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from './fake-llm-server.js';

// The fake's token estimate is characters / 4, so a 24,000-character prefix is 6,000 tokens.
const SHARED = `## Task\nreview the change\n\n## Diff\n${'+ a line of the diff that every judge sees\n'.repeat(560)}`;
const sharedTokens = (extra = 0) => Math.ceil((SHARED.length + extra) / 4);

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function post(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!fake) throw new Error('no fake');
  const response = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

function anthropicBody(suffix: string, breakpoint = true): Record<string, unknown> {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    system: 'You are one of several reviewers.',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: SHARED, ...(breakpoint ? { cache_control: { type: 'ephemeral' } } : {}) },
          { type: 'text', text: suffix },
        ],
      },
    ],
  };
}

describe('the fake LLM prompt cache (promptCache: true)', () => {
  it('Anthropic: the first request with a breakpoint writes the prefix, a second with another suffix reads it', async () => {
    fake = await startFakeLlm({ promptCache: true });
    const first = (await post('/v1/messages', anthropicBody('## Your review\nsecurity'))).usage as Record<
      string,
      number
    >;
    const second = (await post('/v1/messages', anthropicBody('## Your review\ntesting'))).usage as Record<
      string,
      number
    >;
    const written = first.cache_creation_input_tokens ?? 0;
    // The prefix up to the breakpoint: the system line, the message's role and part type, the shared text.
    expect(written).toBeGreaterThanOrEqual(sharedTokens());
    expect(written).toBeLessThan(sharedTokens() + 20);
    expect(first.cache_read_input_tokens).toBe(0);
    expect(second.cache_creation_input_tokens).toBe(0);
    expect(second.cache_read_input_tokens).toBe(written);
    // Only the suffix is plain input.
    expect(second.input_tokens).toBeGreaterThan(0);
    expect(second.input_tokens).toBeLessThan(10);
    expect(fake.requests.map((request) => request.promptCache?.readTokens)).toEqual([0, written]);
  });

  it('Anthropic: requests sent together all write, since a prefix is readable only once it was answered', async () => {
    fake = await startFakeLlm({ promptCache: true, script: [{ text: 'slow', delayMs: 300 }] });
    const [first, second] = await Promise.all([
      post('/v1/messages', anthropicBody('one')),
      post('/v1/messages', anthropicBody('two')),
    ]);
    const writes = [first, second].map(
      (body) => (body.usage as Record<string, number>).cache_creation_input_tokens,
    );
    expect(writes.every((tokens) => (tokens ?? 0) > 6_000)).toBe(true);
    const after = (await post('/v1/messages', anthropicBody('three'))).usage as Record<string, number>;
    expect(after.cache_read_input_tokens).toBe(writes[0]);
  });

  it('Anthropic: no breakpoint, or a prefix under 1,024 tokens, is neither read nor written', async () => {
    fake = await startFakeLlm({ promptCache: true });
    await post('/v1/messages', anthropicBody('a', false));
    const repeat = (await post('/v1/messages', anthropicBody('b', false))).usage as Record<string, number>;
    expect(repeat).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(repeat.input_tokens).toBeGreaterThan(6_000);
    const small = {
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'short', cache_control: { type: 'ephemeral' } }] },
      ],
    };
    await post('/v1/messages', small);
    const smallRepeat = (await post('/v1/messages', small)).usage as Record<string, number>;
    expect(smallRepeat).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('OpenAI Chat Completions: a repeated prefix of 1,024 tokens or more is cached in 128-token steps', async () => {
    fake = await startFakeLlm({ promptCache: true });
    const body = (suffix: string) => ({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are one of several reviewers.' },
        { role: 'user', content: `${SHARED}${suffix}` },
      ],
    });
    const first = (await post('/v1/chat/completions', body('security'))).usage as Record<string, unknown>;
    const second = (await post('/v1/chat/completions', body('speedy!!'))).usage as Record<string, unknown>;
    expect(first.prompt_tokens_details).toEqual({ cached_tokens: 0 });
    const cached = (second.prompt_tokens_details as { cached_tokens: number }).cached_tokens;
    expect(cached).toBeGreaterThanOrEqual(1_024);
    expect((cached - 1_024) % 128).toBe(0);
    expect(cached).toBeLessThanOrEqual(sharedTokens());
    expect(cached).toBeGreaterThan(sharedTokens() - 128);
    expect(second.prompt_tokens).toBe(first.prompt_tokens);
  });

  it('OpenAI Responses: input_tokens_details.cached_tokens for a repeated prefix', async () => {
    fake = await startFakeLlm({ promptCache: true });
    const body = (suffix: string) => ({
      model: 'gpt-5',
      instructions: 'Review.',
      input: `${SHARED}${suffix}`,
    });
    await post('/v1/responses', body('a'));
    const usage = (await post('/v1/responses', body('b'))).usage as Record<string, unknown>;
    const cached = (usage.input_tokens_details as { cached_tokens: number }).cached_tokens;
    expect(cached).toBeGreaterThanOrEqual(1_024);
    expect((cached - 1_024) % 128).toBe(0);
  });

  it('Gemini: cachedContentTokenCount for a repeated prefix, none for a prompt seen once', async () => {
    fake = await startFakeLlm({ promptCache: true });
    const body = (suffix: string) => ({
      contents: [{ role: 'user', parts: [{ text: `${SHARED}${suffix}` }] }],
    });
    const path = '/v1beta/models/gemini-2.5-flash:generateContent';
    const first = (await post(path, body('a'))).usageMetadata as Record<string, number>;
    const second = (await post(path, body('b'))).usageMetadata as Record<string, number>;
    expect(first.cachedContentTokenCount).toBe(0);
    expect(second.cachedContentTokenCount).toBeGreaterThan(sharedTokens() - 2);
    expect(second.promptTokenCount).toBe(first.promptTokenCount);
  });

  it('is off unless asked for: scripted and default usage stay exact', async () => {
    fake = await startFakeLlm();
    await post('/v1/messages', anthropicBody('a'));
    const usage = (await post('/v1/messages', anthropicBody('b'))).usage as Record<string, number>;
    expect(usage).toEqual({
      input_tokens: 100,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 20,
    });
    expect(fake.requests[1]?.promptCache).toBeUndefined();
  });

  it('keeps the usage a turn scripts, and accounts the cache per server instance', async () => {
    fake = await startFakeLlm({
      promptCache: true,
      script: [{ text: 'ok', usage: { input: 7, output: 1 } }],
    });
    const scripted = (await post('/v1/messages', anthropicBody('a'))).usage as Record<string, number>;
    expect(scripted).toMatchObject({ input_tokens: 7, cache_creation_input_tokens: 0 });
    const other = await startFakeLlm({ promptCache: true });
    try {
      const response = await fetch(`${other.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(anthropicBody('b')),
      });
      const usage = ((await response.json()) as { usage: Record<string, number> }).usage;
      // Another server has its own cache: the prefix is written there, not read.
      expect(usage.cache_read_input_tokens).toBe(0);
      expect(usage.cache_creation_input_tokens).toBeGreaterThan(6_000);
    } finally {
      await other.close();
    }
  });
});
