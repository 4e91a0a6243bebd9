import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, Output } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeDialectWithAiSdk } from './describe-dialect-with-ai-sdk.js';
import { type FakeLlm, startFakeLlm } from './fake-llm-server.js';

describeDialectWithAiSdk('Anthropic Messages through @ai-sdk/anthropic', {
  dialect: 'anthropic',
  path: /^\/v1\/messages$/,
  createModel: (fake, apiKey) =>
    createAnthropic({ baseURL: fake.sdkBaseUrl.anthropic, apiKey })('claude-sonnet-4-5'),
});

interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseEvents(text: string): StreamEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => ({
      event: /^event: (.+)$/m.exec(block)?.[1] ?? '',
      data: JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>,
    }));
}

const claudeTools = [
  {
    name: 'Write',
    description: 'Writes a file to the local filesystem.',
    input_schema: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
          description: 'The absolute path to the file to write (must be absolute, not relative)',
        },
        content: { type: 'string' },
      },
      required: ['file_path', 'content'],
    },
  },
  {
    name: 'Bash',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

describe('Anthropic Messages wire details (Claude Code shapes)', () => {
  let fake: FakeLlm;
  beforeEach(async () => {
    fake = await startFakeLlm();
  });
  afterEach(() => fake.close());

  async function post(pathAndQuery: string, body: Record<string, unknown>): Promise<Response> {
    return fetch(`${fake.baseUrl.anthropic}${pathAndQuery}`, {
      method: 'POST',
      headers: {
        'x-api-key': 'claude-key',
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  }

  it('streams a Write tool_use with input_json_delta on ?beta=true, the path joined onto the prompt cwd', async () => {
    fake.script.push({
      writeFile: { path: 'src/a.ts', content: 'export {};\n' },
      text: 'Writing it.',
      usage: { input: 500, cached: 300, cacheWrite: 50 },
    });
    const response = await post('/v1/messages?beta=true', {
      model: 'claude-opus-4-1',
      max_tokens: 32000,
      stream: true,
      system: [
        { type: 'text', text: 'You are Claude Code.\n<env>\nWorking directory: /home/user/project\n</env>' },
      ],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Create src/a.ts' }] }],
      tools: claudeTools,
    });
    const events = parseEvents(await response.text());
    const names = events.map((entry) => entry.event);
    expect(names.filter((name, index) => name !== names[index - 1])).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const text = events
      .filter((entry) => (entry.data.delta as { type?: string } | undefined)?.type === 'text_delta')
      .map((entry) => (entry.data.delta as { text: string }).text)
      .join('');
    expect(text).toBe('Writing it.');
    const json = events
      .filter((entry) => (entry.data.delta as { type?: string } | undefined)?.type === 'input_json_delta')
      .map((entry) => (entry.data.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ file_path: '/home/user/project/src/a.ts', content: 'export {};\n' });
    expect(events.find((entry) => entry.event === 'message_delta')?.data).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: {
        input_tokens: 150,
        cache_read_input_tokens: 300,
        cache_creation_input_tokens: 50,
        output_tokens: 20,
      },
    });
    expect(fake.lastRequest()).toMatchObject({
      query: { beta: 'true' },
      headers: { 'x-api-key': '[redacted]' },
    });
  });

  it('answers count_tokens, the warm-up probe and the quota probe without consuming the script', async () => {
    fake.script.push('main');
    const count = await post('/v1/messages/count_tokens', {
      model: 'claude-haiku-4-5',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(await count.json()).toEqual({ input_tokens: 100 });
    const warmup = await post('/v1/messages', {
      model: 'm',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Warmup' }],
      tools: claudeTools,
    });
    expect(((await warmup.json()) as { content: unknown[] }).content).toEqual([
      { type: 'text', text: 'Ready.' },
    ]);
    const quota = await post('/v1/messages', {
      model: 'm',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'quota' }],
    });
    expect(quota.status).toBe(200);
    expect(fake.sideRequests().map((entry) => entry.sideRule)).toEqual([
      'count-tokens',
      'warmup',
      'quota-check',
    ]);
    expect(fake.script.remaining).toBe(1);
  });

  it('answers structured output through the forced json tool for models without native structured output', async () => {
    const model = createAnthropic({ baseURL: fake.sdkBaseUrl.anthropic, apiKey: 'k' })('fake-model');
    fake.script.push({ verdict: { pass: true, reason: 'fine' } });
    const { output } = await generateText({
      model,
      maxRetries: 0,
      output: Output.object({ schema: z.object({ pass: z.boolean(), reason: z.string() }) }),
      prompt: 'Judge.',
    });
    expect(output).toEqual({ pass: true, reason: 'fine' });
    expect(fake.lastRequest()?.toolNames).toEqual(['json']);
  });
});
