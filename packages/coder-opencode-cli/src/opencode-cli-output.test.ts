import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isOpencodeFinalLine,
  OpencodeRunAccumulator,
  summariseOpencodeOutput,
} from './opencode-cli-output.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('summariseOpencodeOutput (OpenCode 1.18.33, captured live)', () => {
  it('sums the steps of a run: uncached input, cache reads apart, no price → cost unknown', () => {
    expect(summariseOpencodeOutput(fixture('opencode-1.18.33.jsonl'), 'm')).toEqual({
      sessionId: 'ses_dd43c74e4ffeYUQ21nrnZGjRed',
      errorMessage: undefined,
      finished: true,
      usage: {
        inputTokens: 1400,
        cachedInputTokens: 1200,
        outputTokens: 52,
        costUsd: null,
        source: 'reported',
        model: 'm',
      },
    });
  });

  it("reads the error event's message", () => {
    const summary = summariseOpencodeOutput(fixture('opencode-1.18.33-error.jsonl'));
    expect(summary).toMatchObject({
      errorMessage: 'Incorrect API key provided',
      finished: true,
      usage: undefined,
    });
  });
});

describe('OpencodeRunAccumulator', () => {
  const step = (reason: string, tokens: object, cost: number) =>
    JSON.stringify({ type: 'step_finish', sessionID: 'ses_1', part: { reason, tokens, cost } });

  it('counts cache writes as input and reasoning as output, and adds up cost', () => {
    const accumulator = new OpencodeRunAccumulator();
    accumulator.push(
      step('tool-calls', { input: 10, output: 5, reasoning: 7, cache: { read: 3, write: 4 } }, 0.25),
    );
    expect(accumulator.summary().finished).toBe(false);
    accumulator.push(JSON.stringify({ type: 'step_start', sessionID: 'ses_1', part: {} }));
    accumulator.push(step('stop', { input: 1, output: 2, reasoning: 0, cache: { read: 0, write: 0 } }, 0.5));
    expect(accumulator.summary()).toMatchObject({
      finished: true,
      usage: { inputTokens: 15, outputTokens: 14, cachedInputTokens: 3, costUsd: 0.75 },
    });
  });

  it('ignores lines that are not OpenCode events', () => {
    const accumulator = new OpencodeRunAccumulator();
    expect(accumulator.push('INFO starting')).toBeUndefined();
    expect(accumulator.push('{"type":"unknown"}')).toBeUndefined();
    expect(accumulator.summary()).toEqual({
      sessionId: undefined,
      usage: undefined,
      errorMessage: undefined,
      finished: false,
    });
  });
});

describe('isOpencodeFinalLine', () => {
  it('is true for the last step_finish and for an error, not for a tool-call step', () => {
    const lines = fixture('opencode-1.18.33.jsonl').trim().split('\n');
    expect(lines.map(isOpencodeFinalLine)).toEqual(lines.map((_, index) => index === lines.length - 1));
    expect(isOpencodeFinalLine(fixture('opencode-1.18.33-error.jsonl').trim())).toBe(true);
  });
});
