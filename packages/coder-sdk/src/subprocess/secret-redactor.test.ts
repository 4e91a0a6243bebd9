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

const pem = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACBsZWFrZWQta2V5LW1hdGVyaWFsLXRoYXQtbXVzdC1ub3QtbGVhaw==',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');
const keyMaterial = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ';

describe('SecretRedactor: secrets recognised by their shape', () => {
  it('drops a PEM private key block however the chunks cut it', () => {
    const text = `cat ~/.ssh/id_ed25519\n${pem}\ndone\n`;
    for (let split = 0; split <= text.length; split += 7) {
      const output = streamThrough(new SecretRedactor([]), [text.slice(0, split), text.slice(split)]);
      expect(output).toBe('cat ~/.ssh/id_ed25519\n[redacted private key]\ndone\n');
    }
  });

  it('drops a key block JSON-escaped inside one line, as a CLI’s JSON event carries it', () => {
    const line = `${JSON.stringify({ type: 'tool_result', content: `${pem}\n` })}\n`;
    expect(line).toContain('\\nb3BlbnNzaC1');
    const output = streamThrough(new SecretRedactor([]), [
      line.slice(0, 60),
      line.slice(60, 130),
      line.slice(130),
    ]);
    expect(output).toBe('{"type":"tool_result","content":"[redacted private key]\\n"}\n');
    expect(output).not.toContain(keyMaterial);
  });

  it.each([
    [
      'anthropic key',
      'sk-ant-api03-Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6-AbCdEfAA',
    ],
    ['openai key', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrSt'],
    ['openai key', 'sk-0123456789abcdefghijABCDEFGHIJ0123456789abcdef'],
    ['github token', 'ghp_0123456789abcdefghijABCDEFGHIJ012345'],
    ['github token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'],
    ['aws access key', 'AKIAIOSFODNN7EXAMPLE'],
    ['slack token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'],
    ['google api key', 'AIzaSyA-0123456789abcdefghijklmnopqrstu'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ])('replaces a %s with a marker naming its kind, in any context', (kind, value) => {
    const text = `export KEY=${value}\n{"token":"${value}"}\nline\\n${value} end\n`;
    const marker = `[redacted ${kind}]`;
    expect(new SecretRedactor([]).redact(text)).toBe(
      `export KEY=${marker}\n{"token":"${marker}"}\nline\\n${marker} end\n`,
    );
    const streamed = streamThrough(
      new SecretRedactor([]),
      [...text].map((character) => character),
    );
    expect(streamed).not.toContain(value);
  });

  it('leaves lookalikes alone: short prefixes, words that merely contain a prefix', () => {
    const text =
      'pip install sk-learn; git log --format=%H; task-ant-colony; ghp_short; AKIA1234; eyJhbGciOi\n';
    expect(new SecretRedactor([]).redact(text)).toBe(text);
  });

  it('names a known value by its variable even when it also has a known shape', () => {
    const value = 'sk-ant-api03-known0123456789known0123456789known0123456789';
    const redactor = new SecretRedactor([{ name: 'ANTHROPIC_API_KEY', value }]);
    expect(streamThrough(redactor, [`key ${value.slice(0, 20)}`, `${value.slice(20)}\n`])).toBe(
      'key [redacted ANTHROPIC_API_KEY]\n',
    );
  });

  it('gets through a megabyte line of near-misses and a flood of one-character chunks (linear work)', () => {
    const nearMisses = ['eyJhbGciOiJIUzI1NiJ9.', '-----BEGIN RSA ', 'sk-an', 'xoxb-', 'AIza', 'ghp_'];
    let line = '';
    // One word per near-miss: glued together they would form a real `sk-` key shape.
    while (line.length < 1024 * 1024) line += `${nearMisses.join(' ')} `;
    const redactor = new SecretRedactor([{ name: 'K', value: 'a-known-secret-value' }]);
    const output = streamThrough(redactor, [line.slice(0, 500_000), line.slice(500_000), '\n']);
    expect(output).toBe(`${line}\n`);

    const oneWord = 'eyJhbGciOiJIUzI1NiJ9'.repeat(50_000);
    expect(new SecretRedactor([]).redact(`${oneWord}\n`)).toBe(`${oneWord}\n`);

    const word = 'x'.repeat(300_000);
    const tiny = new SecretRedactor([]);
    expect(streamThrough(tiny, [...word, '\n'])).toBe(`${word}\n`);
  });

  it('does not let one stray BEGIN line swallow the rest of the output', () => {
    const text = `-----BEGIN PRIVATE KEY-----\n${'not a key\n'.repeat(5000)}the end\n`;
    const output = streamThrough(new SecretRedactor([]), [text]);
    expect(output.startsWith('[redacted private key]')).toBe(true);
    expect(output.endsWith('the end\n')).toBe(true);
  });
});
