import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agyConversationId, agyErrorMessage, agyUsage, parseAgyEnvelope } from './agy-output.js';

const documented = readFileSync(new URL('./__fixtures__/agy-1.2.14.envelope.json', import.meta.url), 'utf8');

describe('parseAgyEnvelope', () => {
  it('reads the documented envelope, indented or on one line, after warnings', () => {
    const compact = JSON.stringify(JSON.parse(documented));
    for (const output of [documented, compact, `Warning: something\n${documented}`, `note\n${compact}\n`]) {
      const envelope = parseAgyEnvelope(output);
      expect(envelope?.status).toBe('SUCCESS');
      expect(envelope && agyConversationId(envelope)).toBe('3b4a1d20-3968-4ed2-90b3-00eea3060b02');
    }
  });

  it('finds nothing in plain text (what older agy prints, or nothing at all)', () => {
    expect(parseAgyEnvelope('Created hello.txt.\n')).toBeUndefined();
    expect(parseAgyEnvelope('')).toBeUndefined();
  });

  it('accepts the other spellings seen in integrations', () => {
    const envelope = parseAgyEnvelope('{"status":"ERROR","conversationId":"c1","error":{"message":"quota"}}');
    expect(envelope && agyConversationId(envelope)).toBe('c1');
    expect(envelope && agyErrorMessage(envelope)).toBe('quota');
  });
});

describe('agyUsage', () => {
  it('keeps cache reads apart and counts thinking as output; agy reports no cost', () => {
    const envelope = parseAgyEnvelope(documented);
    expect(envelope && agyUsage(envelope, 'gemini-3-pro')).toEqual({
      inputTokens: 1800,
      outputTokens: 184,
      cachedInputTokens: 600,
      costUsd: null,
      source: 'reported',
      model: 'gemini-3-pro',
    });
  });

  it('is undefined when the envelope carries no usage (before 1.1.8 there is no envelope at all)', () => {
    const envelope = parseAgyEnvelope('{"status":"SUCCESS","response":"ok"}');
    expect(envelope && agyUsage(envelope, undefined)).toBeUndefined();
  });
});
