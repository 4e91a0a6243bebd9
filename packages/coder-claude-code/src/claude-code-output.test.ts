import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  claudeCodeInitEventSchema,
  claudeCodeUsage,
  describeClaudeCodeError,
  findClaudeCodeResult,
  isClaudeCodeResultLine,
} from './claude-code-output.js';

// Captured from Claude Code 2.1.332 run with this adapter's argv against the fake LLM (COMPAT.md).
const success = readFileSync(
  new URL('./__fixtures__/claude-code-stream-json-2.1.332.jsonl', import.meta.url),
  'utf8',
);
const failure = readFileSync(
  new URL('./__fixtures__/claude-code-stream-json-error-2.1.332.jsonl', import.meta.url),
  'utf8',
);

describe('Claude Code stream-json output (2.1.332)', () => {
  it('starts with an init event naming the session, model and permission mode', () => {
    const init = claudeCodeInitEventSchema.parse(JSON.parse(success.split('\n')[0] ?? ''));
    expect(init).toMatchObject({
      model: 'claude-sonnet-4-5',
      permissionMode: 'acceptEdits',
      claude_code_version: '2.1.332',
      apiKeySource: 'ANTHROPIC_API_KEY',
    });
    expect(init.tools).toContain('Write');
    expect(init.tools).not.toContain('EnterWorktree');
  });

  it('finds the result event and normalises its usage: cache writes are input and counted apart, cache reads are cached', () => {
    const result = findClaudeCodeResult(success);
    expect(result).toMatchObject({ is_error: false, subtype: 'success', num_turns: 2 });
    // The fake LLM answered 1200/800 cached/300 written and 1500/1100 cached: 500 plain input tokens.
    expect(claudeCodeUsage(result!)).toEqual({
      inputTokens: 800,
      outputTokens: 85,
      cachedInputTokens: 1900,
      cacheWriteTokens: 300,
      costUsd: 0.00447,
      source: 'reported',
      model: 'claude-sonnet-4-5',
    });
    expect(result?.session_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads the usage object when modelUsage is absent', () => {
    const result = findClaudeCodeResult(
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        session_id: 's',
        usage: {
          input_tokens: 10,
          output_tokens: 5,
          cache_read_input_tokens: 7,
          cache_creation_input_tokens: 2,
        },
      }),
    );
    expect(claudeCodeUsage(result!)).toEqual({
      inputTokens: 12,
      outputTokens: 5,
      cachedInputTokens: 7,
      cacheWriteTokens: 2,
      costUsd: null,
      source: 'reported',
    });
  });

  it('explains an API error reported in the result (subtype "success", is_error true)', () => {
    const result = findClaudeCodeResult(failure);
    expect(result).toMatchObject({ is_error: true, subtype: 'success', api_error_status: 401 });
    expect(describeClaudeCodeError(result!)).toBe(
      'Invalid API key · Fix external API key (api_error, HTTP 401)',
    );
  });

  it('recognises only the result line as the final event', () => {
    const lines = success.trim().split('\n');
    expect(lines.map(isClaudeCodeResultLine)).toEqual(lines.map((_, index) => index === lines.length - 1));
    expect(isClaudeCodeResultLine('{"type":"result"')).toBe(false);
    expect(findClaudeCodeResult('not json\n{"type":"assistant"}\n')).toBeUndefined();
  });
});
