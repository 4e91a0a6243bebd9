import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { geminiCliUsage, isGeminiCliFinalLine, summariseGeminiCliOutput } from './gemini-cli-output.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('summariseGeminiCliOutput (Gemini CLI 0.61.0, captured live)', () => {
  it('reads the session id and normalised usage of a successful run', () => {
    const summary = summariseGeminiCliOutput(fixture('gemini-cli-0.61.0.stream.jsonl'));
    expect(summary).toEqual({
      sessionId: '52ee43ee-ed48-49f0-8fd1-3428b8bcb29a',
      status: 'success',
      errorMessage: undefined,
      usage: {
        inputTokens: 1400,
        cachedInputTokens: 1200,
        outputTokens: 52,
        costUsd: null,
        source: 'reported',
        model: 'gemini-2.5-pro',
      },
    });
  });

  it('sums the models of an auto-routed run and names none', () => {
    const { usage } = summariseGeminiCliOutput(fixture('gemini-cli-0.61.0-auto-model.stream.jsonl'));
    expect(usage).toEqual({
      inputTokens: 300,
      cachedInputTokens: 0,
      outputTokens: 60,
      costUsd: null,
      source: 'reported',
    });
  });

  it("reports a failed result's status and message", () => {
    const summary = summariseGeminiCliOutput(fixture('gemini-cli-0.61.0-error.stream.jsonl'));
    expect(summary.status).toBe('error');
    expect(summary.errorMessage).toContain('API key not valid');
  });

  it('ignores warnings, partial lines and unknown events', () => {
    const output = `Warning: Basic terminal detected\n{"type":"future_event"}\n{"type":"res\n`;
    expect(summariseGeminiCliOutput(output)).toEqual({
      sessionId: undefined,
      usage: undefined,
      status: undefined,
      errorMessage: undefined,
    });
  });
});

describe('geminiCliUsage', () => {
  it('counts thinking tokens (in total_tokens, not output_tokens) as output', () => {
    const usage = geminiCliUsage({
      total_tokens: 180,
      input_tokens: 100,
      output_tokens: 30,
      cached: 40,
      input: 60,
    });
    expect(usage).toMatchObject({ inputTokens: 60, cachedInputTokens: 40, outputTokens: 80 });
  });
});

describe('isGeminiCliFinalLine', () => {
  it('is true only for the result event', () => {
    const lines = fixture('gemini-cli-0.61.0.stream.jsonl').trim().split('\n');
    expect(lines.filter(isGeminiCliFinalLine)).toEqual([lines.at(-1)]);
  });
});
