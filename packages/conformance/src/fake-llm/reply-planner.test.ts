import { describe, expect, it } from 'vitest';
import { DEFAULT_USAGE } from './assistant-reply.js';
import type { ConversationView, DeclaredTool } from './conversation-view.js';
import { parseFakeLlmTurn } from './fake-llm-script.js';
import { planTurn } from './reply-planner.js';

const settings = { defaultUsage: DEFAULT_USAGE, workspaceDir: undefined };

function tool(name: string, properties: string[], required: string[]): DeclaredTool {
  const schema = {
    type: 'object',
    properties: Object.fromEntries(properties.map((key) => [key, {}])),
    required,
  };
  return { name, kind: 'function', description: '', schema, providerType: undefined };
}

function view(overrides: Partial<ConversationView>): ConversationView {
  return {
    model: 'fake-model',
    stream: false,
    system: '',
    messages: [{ role: 'user', text: 'judge this' }],
    tools: [],
    toolChoice: { mode: 'auto' },
    responseSchema: undefined,
    maxOutputTokens: undefined,
    ...overrides,
  };
}

const verdict = parseFakeLlmTurn(
  { verdict: { severity: 'pass', justification: 'Saw: {{lastToolResult}}', findings: [] } },
  0,
);

describe('a scripted judge that looked before it answers', () => {
  it('quotes the latest tool result into its verdict', () => {
    const plan = planTurn(
      verdict,
      view({
        messages: [
          { role: 'user', text: 'judge this' },
          { role: 'assistant', text: '[tool call read_file]' },
          { role: 'tool', text: 'old result' },
          { role: 'assistant', text: '[tool call read_file]' },
          { role: 'tool', text: '1: export const LIMIT = 5;' },
        ],
      }),
      settings,
    );
    expect(plan).toMatchObject({ kind: 'reply' });
    const text = plan.kind === 'reply' ? plan.reply.text : '';
    expect(JSON.parse(text)).toMatchObject({ justification: 'Saw: 1: export const LIMIT = 5;' });
  });

  it('answers through the one required tool whose schema the verdict fits, beside the read-only tools', () => {
    const tools = [
      tool('read_file', ['path', 'start_line'], ['path']),
      tool('json', ['severity', 'justification', 'findings'], ['severity', 'justification', 'findings']),
    ];
    const plan = planTurn(verdict, view({ tools, toolChoice: { mode: 'required' } }), settings);
    expect(plan.kind === 'reply' ? plan.reply.toolCalls.map((call) => call.name) : []).toEqual(['json']);
    // Without a tool the answer fits, it stays a text answer.
    const unfit = planTurn(
      verdict,
      view({ tools: [tools[0]!, tools[0]!], toolChoice: { mode: 'required' } }),
      settings,
    );
    expect(unfit.kind === 'reply' ? unfit.reply.toolCalls : undefined).toEqual([]);
  });
});
