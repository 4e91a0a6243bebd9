import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStructured } from './generate-structured.js';
import { generateVerdictWithTools, type VerdictTool } from './generate-verdict-with-tools.js';
import { type FakeLlmServer, startFakeLlmServer } from './testing/fake-llm-server.js';
import { verdictAnswerSchema } from './verdict.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

// The loop over real HTTP, with tool calls in each provider's wire format, is tested where the tools live
// (core's judges/judge-tools/judge-tool-loop.test.ts, against the conformance kit's fake LLM).

const readFile: VerdictTool = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: async () => 'never called by the mock',
};

describe('generateVerdictWithTools', () => {
  it('returns a verdict from a model that answers at once, in one turn that costs what the mock costs', async () => {
    const result = await generateVerdictWithTools({ model: 'mock/warn', prompt: 'judge', tools: [readFile] });
    expect(result.verdict.severity).toBe('warn');
    expect(result).toMatchObject({ model: 'mock/warn', repaired: false, turns: 1 });
    expect(result.usage).toMatchObject({ costUsd: 0, source: 'reported' });
  });

  it('refuses a turn budget that is not a whole number of at least one, and a loop without tools', async () => {
    await expect(
      generateVerdictWithTools({ model: 'mock/pass', prompt: 'judge', tools: [readFile], maxTurns: 0 }),
    ).rejects.toThrow(/maxTurns must be a whole number ≥ 1/);
    await expect(
      generateVerdictWithTools({ model: 'mock/pass', prompt: 'judge', tools: [] }),
    ).rejects.toThrow(/at least one tool/);
  });

  it('sends the shared prompt prefix first with its cache breakpoint, the tools after it, as a judge without tools', async () => {
    server.enqueue({ text: JSON.stringify({ severity: 'pass', justification: 'fine', findings: [] }) });
    const shared = '## Task\nadd rate limiting\n\n## Diff\n+limit();\n';
    const result = await generateVerdictWithTools({
      model: 'anthropic/claude-sonnet-4-5',
      system: 'You review changes.',
      prompt: `${shared}## Criteria\n1. Limits are tested.`,
      sharedPrefix: shared,
      tools: [readFile],
      maxRetries: 0,
      settings: {
        env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
        providers: { anthropic: { base_url: `${server.origin}/v1` } },
      },
    });
    expect(result.verdict.severity).toBe('pass');
    const body = server.requests.at(-1)?.body as {
      messages: { content: { text: string; cache_control?: unknown }[] }[];
      tools: { name: string }[];
    };
    const [first, rest] = body.messages[0]?.content ?? [];
    expect(first).toMatchObject({ text: shared, cache_control: { type: 'ephemeral' } });
    expect(rest?.text).toContain('Limits are tested.');
    expect(rest?.text).toContain('read-only tools');
    expect(body.tools.map((tool) => tool.name)).toEqual(['read_file']);
  });

  it('repairs a final answer that is not JSON with the same correction and call settings as generateStructured', async () => {
    const valid = JSON.stringify({ severity: 'pass', justification: 'fine', findings: [] });
    const call = {
      prompt: 'judge',
      maxRetries: 0,
      maxOutputTokens: 321,
      temperature: 0.25,
      headers: { 'x-session-affinity': 'job-1' },
      settings: {
        env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
        providers: { anthropic: { base_url: `${server.origin}/v1` } },
      },
      model: 'anthropic/claude-sonnet-4-5',
    };
    type Body = {
      max_tokens: number;
      temperature: number;
      messages: { role: string; content: string | { type: string; text?: string }[] }[];
    };
    const lastUserText = (body: Body) => {
      const content = body.messages.at(-1)?.content;
      return typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');
    };

    server.enqueue({ text: 'The change looks fine to me.' }, { text: valid });
    const before = server.requests.length;
    const looped = await generateVerdictWithTools({ ...call, tools: [readFile] });
    expect(looped).toMatchObject({ repaired: true, turns: 2, verdict: { severity: 'pass' } });
    const loopRequests = server.requests.slice(before);

    server.enqueue({ text: 'The change looks fine to me.' }, { text: valid });
    const middle = server.requests.length;
    await generateStructured({ ...call, schema: verdictAnswerSchema });
    const structuredRequests = server.requests.slice(middle);

    for (const request of [...loopRequests, ...structuredRequests]) {
      expect(request.body).toMatchObject({ max_tokens: 321, temperature: 0.25 });
      expect(request.headers['x-session-affinity']).toBe('job-1');
    }
    const loopRepair = lastUserText(loopRequests[1]?.body as Body);
    expect(loopRepair).toMatch(
      /^Your previous answer could not be used: it is not valid JSON\. Answer again/,
    );
    expect(loopRepair).toBe(lastUserText(structuredRequests[1]?.body as Body));
  });
});
