import { describe, expect, it } from 'vitest';
import { SecretRedactor } from './secret-redactor.js';

const secret = { name: 'ANTHROPIC_API_KEY', value: 'sk-ant-0123456789abcdef' };

function streamThrough(redactor: SecretRedactor, chunks: readonly string[]): string {
  return chunks.map((chunk) => redactor.push(chunk)).join('') + redactor.flush();
}

describe('SecretRedactor', () => {
  it('redacts the raw, base64 and URL-encoded forms', () => {
    const redactor = new SecretRedactor([{ name: 'KEY', value: 'a/b+c=d secret' }]);
    const base64 = Buffer.from('a/b+c=d secret').toString('base64');
    expect(
      redactor.redact(`raw a/b+c=d secret; b64 ${base64}; url ${encodeURIComponent('a/b+c=d secret')}`),
    ).toBe('raw [redacted KEY]; b64 [redacted KEY]; url [redacted KEY]');
  });

  it('catches a secret split across chunks at every possible point', () => {
    const text = `export ANTHROPIC_API_KEY=${secret.value}\n`;
    for (let split = 0; split <= text.length; split += 1) {
      const output = streamThrough(new SecretRedactor([secret]), [text.slice(0, split), text.slice(split)]);
      expect(output).toBe('export ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\n');
    }
  });

  it('passes ordinary text on at once instead of holding it back', () => {
    const redactor = new SecretRedactor([secret]);
    expect(redactor.push('ready\n')).toBe('ready\n');
    expect(redactor.push('token sk-ant-01')).toBe('token ');
    expect(redactor.push('23 is not it\n')).toBe('sk-ant-0123 is not it\n');
  });

  it('ignores values too short to redact safely and works without secrets', () => {
    expect(new SecretRedactor([{ name: 'X', value: 'ab' }]).redact('abc')).toBe('abc');
    expect(streamThrough(new SecretRedactor([]), ['a', 'b'])).toBe('ab');
  });
});
