import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeDialectWithAiSdk } from './describe-dialect-with-ai-sdk.js';
import { type FakeLlm, startFakeLlm } from './fake-llm-server.js';

describeDialectWithAiSdk('OpenAI Chat Completions through @ai-sdk/openai-compatible', {
  dialect: 'openai-chat',
  path: /^\/v1\/chat\/completions$/,
  createModel: (fake, apiKey) =>
    createOpenAICompatible({
      name: 'fake',
      baseURL: fake.sdkBaseUrl.openai,
      apiKey,
      includeUsage: true,
      supportsStructuredOutputs: true,
    })('fake-model'),
});

describeDialectWithAiSdk('OpenAI Chat Completions through createOpenAI().chat()', {
  dialect: 'openai-chat',
  path: /^\/v1\/chat\/completions$/,
  createModel: (fake, apiKey) =>
    createOpenAI({ baseURL: fake.sdkBaseUrl.openai, apiKey }).chat('gpt-4o-mini'),
});

describe('OpenAI Chat Completions wire details', () => {
  let fake: FakeLlm;
  beforeEach(async () => {
    fake = await startFakeLlm();
  });
  afterEach(() => fake.close());

  async function post(body: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${fake.baseUrl.openai}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...body }),
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  it('ends a stream with data: [DONE] and sends the usage chunk only when include_usage is set', async () => {
    fake.script.push('one', 'two');
    const withoutUsage = await post({ stream: true });
    expect(withoutUsage.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(withoutUsage).not.toContain('prompt_tokens');
    const withUsage = await post({ stream: true, stream_options: { include_usage: true } });
    const chunks = withUsage
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice('data: '.length)) as { choices: unknown[]; usage?: unknown });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 0 } },
    });
  });

  it('answers a scripted call to an undeclared tool with a 500 naming it, and keeps the turn queued', async () => {
    fake.script.push({ toolCall: { name: 'Deploy', input: {} } });
    const response = await fetch(`${fake.baseUrl.openai}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        messages: [{ role: 'user', content: 'go' }],
        tools: [{ type: 'function', function: { name: 'Read', parameters: { type: 'object' } } }],
      }),
    });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/"Deploy", which the client did not declare \(it declared Read\)/);
    expect(fake.problems).toHaveLength(1);
    expect(fake.script.remaining).toBe(1);
  });
});
