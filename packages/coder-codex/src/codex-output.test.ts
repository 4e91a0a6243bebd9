import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codexUsage, isCodexFinalLine, summarizeCodexOutput } from './codex-output.js';

// Captured from Codex 0.171.0 run with this adapter's argv against the fake LLM (COMPAT.md).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const success = fixture('codex-exec-json-0.171.0.jsonl');
const failure = fixture('codex-exec-json-failed-0.171.0.jsonl');

describe('codex exec --json output (0.171.0)', () => {
  it('reads the thread id and the usage of turn.completed', () => {
    const summary = summarizeCodexOutput(success);
    expect(summary).toMatchObject({ finished: true, failure: undefined });
    expect(summary.threadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(summary.usage).toMatchObject({ input_tokens: 2700, cached_input_tokens: 1900, output_tokens: 85 });
  });

  it('moves cached tokens out of input tokens (Codex counts them inside) and reports no cost', () => {
    expect(codexUsage(summarizeCodexOutput(success).usage!, 'gpt-5.5')).toEqual({
      inputTokens: 800,
      outputTokens: 85,
      cachedInputTokens: 1900,
      costUsd: null,
      source: 'reported',
      model: 'gpt-5.5',
    });
  });

  it('sums the usage of several turns', () => {
    const turn =
      '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3}}';
    expect(codexUsage(summarizeCodexOutput(`${turn}\n${turn}\n`).usage!, undefined)).toMatchObject({
      inputTokens: 12,
      cachedInputTokens: 8,
      outputTokens: 6,
    });
  });

  it('takes the turn.failed message over the reconnect errors before it', () => {
    const summary = summarizeCodexOutput(failure);
    expect(summary.finished).toBe(true);
    expect(summary.usage).toBeUndefined();
    expect(summary.failure).toMatch(/^unexpected status 401 Unauthorized: invalid api key/);
  });

  it('recognises turn.completed and turn.failed as final events, nothing else', () => {
    const lines = `${success}${failure}`.trim().split('\n');
    const finals = lines.filter(isCodexFinalLine).map((line) => JSON.parse(line).type);
    expect(finals).toEqual(['turn.completed', 'turn.failed']);
    expect(summarizeCodexOutput('Reading additional input from stdin...\n')).toMatchObject({
      finished: false,
    });
  });
});
