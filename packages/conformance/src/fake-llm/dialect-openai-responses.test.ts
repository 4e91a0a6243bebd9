import { createOpenAI } from '@ai-sdk/openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeDialectWithAiSdk } from './describe-dialect-with-ai-sdk.js';
import { type FakeLlm, startFakeLlm } from './fake-llm-server.js';

describeDialectWithAiSdk('OpenAI Responses through createOpenAI().responses()', {
  dialect: 'openai-responses',
  path: /^\/v1\/responses$/,
  createModel: (fake, apiKey) =>
    createOpenAI({ baseURL: fake.sdkBaseUrl.openai, apiKey }).responses('gpt-4.1'),
});

interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseEvents(text: string): StreamEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
      return { event, data };
    });
}

/** A request shaped like Codex's: instructions, environment context with the cwd, freeform apply_patch. */
function codexLikeRequest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'gpt-5-codex',
    instructions: 'You are Codex, a coding agent.',
    input: [
      {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '<environment_context>\n  <cwd>/tmp/repo</cwd>\n</environment_context>',
          },
        ],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add hello.txt' }] },
    ],
    tools: [
      {
        type: 'function',
        name: 'shell_command',
        parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      },
      {
        type: 'custom',
        name: 'apply_patch',
        description: 'Edit files',
        format: { type: 'grammar', syntax: 'lark', definition: 'start: ...' },
      },
    ],
    tool_choice: 'auto',
    stream: true,
    ...extra,
  };
}

describe('OpenAI Responses wire details (Codex shapes)', () => {
  let fake: FakeLlm;
  beforeEach(async () => {
    fake = await startFakeLlm();
  });
  afterEach(() => fake.close());

  async function post(body: Record<string, unknown>): Promise<Response> {
    return fetch(`${fake.baseUrl.openai}/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer codex-key', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  it('maps writeFile onto a freeform apply_patch and streams it as a custom_tool_call item', async () => {
    fake.script.push({ writeFile: { path: 'hello.txt', content: 'hi\n' } });
    const events = parseEvents(await (await post(codexLikeRequest())).text());
    expect(events.map((entry) => entry.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((entry) => entry.data.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(events[6]?.data.item).toMatchObject({
      type: 'custom_tool_call',
      name: 'apply_patch',
      status: 'completed',
      input: '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch',
    });
    expect(events[7]?.data.response).toMatchObject({
      status: 'completed',
      usage: {
        input_tokens: 100,
        output_tokens: 20,
        total_tokens: 120,
        input_tokens_details: { cached_tokens: 0 },
      },
    });
    expect(fake.lastRequest()).toMatchObject({ writeStrategy: 'apply-patch', hasCredentials: true });
  });

  it('serves an explicit custom tool call as raw text and a function call as JSON arguments', async () => {
    fake.script.push({
      toolCalls: [
        { name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
        { name: 'shell_command', input: { command: 'ls' } },
      ],
    });
    const response = (await (await post(codexLikeRequest({ stream: false }))).json()) as {
      output: unknown[];
    };
    expect(response.output).toMatchObject([
      { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
      { type: 'function_call', name: 'shell_command', arguments: '{"command":"ls"}' },
    ]);
  });

  it('reports a truncated stream as response.incomplete with max_output_tokens', async () => {
    fake.script.push({ truncate: true });
    const events = parseEvents(await (await post(codexLikeRequest())).text());
    expect(events.at(-1)).toMatchObject({
      event: 'response.incomplete',
      data: { response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } },
    });
  });
});
