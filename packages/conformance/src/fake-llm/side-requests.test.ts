import { describe, expect, it } from 'vitest';
import type { ConversationMessage, ConversationView, DeclaredTool } from './conversation-view.js';
import { builtInSideRequestRules, findSideRequestRule } from './side-requests.js';
import { findWorkspaceDirectory } from './workspace-directory.js';

const bash: DeclaredTool = {
  name: 'Bash',
  kind: 'function',
  description: '',
  schema: undefined,
  providerType: undefined,
};

function view(fields: Partial<ConversationView> & { user?: string }): ConversationView {
  const messages: ConversationMessage[] = fields.messages ?? [
    { role: 'user', text: fields.user ?? 'Add a test' },
  ];
  return {
    model: 'm',
    stream: false,
    system: '',
    tools: [],
    toolChoice: { mode: 'auto' },
    responseSchema: undefined,
    maxOutputTokens: undefined,
    ...fields,
    messages,
  };
}

function ruleFor(request: ConversationView): string | undefined {
  return findSideRequestRule(request, builtInSideRequestRules)?.name;
}

describe('built-in side-request rules', () => {
  it.each([
    [
      'OpenCode title agent',
      view({ system: 'You are a title generator. You output ONLY a thread title.' }),
      'title',
    ],
    ['Claude Code sub-agent warm-up, tools declared', view({ user: 'Warmup', tools: [bash] }), 'warmup'],
    ['Claude Code quota probe', view({ user: 'quota', maxOutputTokens: 1 }), 'quota-check'],
    [
      'Claude Code compaction, tools declared',
      view({ user: 'Your task is to create a detailed summary of the conversation so far.', tools: [bash] }),
      'summary',
    ],
    [
      'Codex compaction',
      view({
        user: 'You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary.',
        tools: [bash],
      }),
      'summary',
    ],
    [
      'Gemini CLI session summary',
      view({ user: "Summarize the user's primary intent or goal in this conversation" }),
      'summary',
    ],
    [
      'Claude Code topic detection',
      view({ system: "Reply as JSON with 'isNewTopic' and 'title'." }),
      'topic-detection',
    ],
    [
      'Claude Code bash prefix',
      view({ system: '<policy_spec>…</policy_spec>', user: 'Command: git status' }),
      'bash-prefix',
    ],
  ])('recognises %s', (_name, request, rule) => {
    expect(ruleFor(request)).toBe(rule);
  });

  it.each([
    [
      'a coding task that mentions a title',
      view({ user: 'Generate a title for the README page', tools: [bash] }),
    ],
    [
      'a loop continuation after a tool result',
      view({
        messages: [
          { role: 'user', text: 'Warmup' },
          { role: 'assistant', text: '[tool call Bash]' },
          { role: 'tool', text: 'ok' },
        ],
      }),
    ],
    [
      'a judge with its own verdict schema',
      view({
        responseSchema: {
          type: 'object',
          properties: { pass: { type: 'boolean' }, reason: { type: 'string' } },
        },
      }),
    ],
    [
      'a long system prompt that mentions summaries, with tools',
      view({ system: 'Write a summary of the conversation when asked.', tools: [bash] }),
    ],
  ])('leaves %s to the script', (_name, request) => {
    expect(ruleFor(request)).toBeUndefined();
  });

  it('answers a title request that carries a schema with JSON from the schema', () => {
    const request = view({
      system: 'Generate a concise, sentence-case title for this coding session.',
      responseSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    });
    const rule = findSideRequestRule(request, builtInSideRequestRules);
    expect(rule?.name).toBe('title');
    expect(JSON.parse(rule?.answer(request) ?? '')).toEqual({ title: 'Fake LLM session' });
  });
});

describe('findWorkspaceDirectory', () => {
  it.each([
    [
      'Claude Code <env>',
      view({ system: '<env>\nWorking directory: /home/u/repo\nIs directory a git repo: Yes\n</env>' }),
      '/home/u/repo',
    ],
    [
      'Codex environment context',
      view({ user: '<environment_context>\n  <cwd>/tmp/work tree</cwd>\n</environment_context>' }),
      '/tmp/work tree',
    ],
    ['Gemini CLI', view({ system: "I'm currently working in the directory: /srv/app." }), '/srv/app'],
    ['nothing stated', view({ system: 'You are helpful.' }), undefined],
  ])('reads the directory from %s', (_name, request, directory) => {
    expect(findWorkspaceDirectory(request)).toBe(directory);
  });
});
