import { describe, expect, it } from 'vitest';
import { PatternRedactor } from './pattern-redactor.js';
import { SecretMatcher } from './secret-matcher.js';
import { SECRET_PATTERNS, SHORTEST_SECRET_WORD } from './secret-patterns.js';

// Shapes are assembled at run time so that this file itself never holds a secret-shaped literal.
const megabyte = 1024 * 1024;
const anthropicKey = `sk-ant-api03-${'Zm9vYmFy'.repeat(5)}`;
const awsKey = `AKIA${'IOSFODNN7EXAMPLE'}`;
const known = 'known-secret-Value+/42';

/** `unit` repeated to exactly `length` characters. */
function filled(unit: string, length = megabyte): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** The same pseudo-random base64 characters on every run. */
function base64Like(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let state = 1;
  const characters: string[] = [];
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    characters.push(alphabet[(state >>> 16) % alphabet.length] ?? 'A');
  }
  return characters.join('');
}

// Lines a hostile coder can print, each 1 MB and built against a pattern's shape: none holds a secret.
const adversarialLines: Record<string, string> = {
  'a…': filled('a'),
  'A A…': filled('A '),
  'AKIA…': filled('AKIA'),
  base64: base64Like(megabyte),
  '=…': filled('='),
  'sk-an sk-an…': filled('sk-an '),
  '-----BEGIN RSA …': filled('-----BEGIN RSA '),
  'eyJ….eyJ…': filled('eyJhbGciOi.'),
  'partial known value…': filled(`${known.slice(0, -1)} `),
};

/** `text` through a redactor in chunks of `size` characters. */
function streamThrough(text: string, size: number): string {
  const redactor = new PatternRedactor();
  let output = '';
  for (let offset = 0; offset < text.length; offset += size)
    output += redactor.push(text.slice(offset, offset + size));
  return output + redactor.flush();
}

describe('SecretMatcher on 1 MB lines', () => {
  const matcher = new SecretMatcher();
  matcher.add(known, '[K]');

  it.each(Object.entries(adversarialLines))('passes a line of %s unchanged', (_shape, line) => {
    expect(matcher.redact(line) === line).toBe(true);
  });

  it('replaces each form of a value hidden among a megabyte of near-misses, and nothing else', () => {
    const forms = [known, encodeURIComponent(known), Buffer.from(known).toString('base64')];
    const noise = [
      filled('AKIA', 200_000),
      base64Like(200_000),
      filled('=', 200_000),
      filled('known-', 200_000),
    ];
    const line = noise.map((part, index) => `${part} ${forms[index % forms.length]} `).join('');
    const expected = noise.map((part) => `${part} [K] `).join('');
    expect(matcher.redact(line)).toBe(expected);
  });

  it('holds back exactly the ending a value may continue from, at the end of a long text', () => {
    expect(matcher.partialLength(`${filled('known-secret-')}${known.slice(0, 9)}`)).toBe(9);
    expect(matcher.partialLength(`${filled('=')}${known.slice(0, 17)}`)).toBe(17);
    expect(matcher.partialLength(filled('='))).toBe(0);
  });
});

describe('PatternRedactor on 1 MB lines', () => {
  it('can try every pattern in one expression: each is sticky only and captures nothing', () => {
    for (const { kind, pattern } of SECRET_PATTERNS) {
      expect(pattern.flags, kind).toBe('y');
      // An alternative that matches the empty string reports one entry per capturing group besides the whole.
      expect(new RegExp(`${pattern.source}|`).exec('')?.length, kind).toBe(1);
    }
  });

  it(`skips words shorter than ${SHORTEST_SECRET_WORD} characters safely: no pattern matches at one, whatever follows`, () => {
    const wordCharacters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-';
    let words = [''];
    const shorter: string[] = [];
    for (let length = 1; length < SHORTEST_SECRET_WORD; length += 1) {
      words = words.flatMap((prefix) => [...wordCharacters].map((character) => prefix + character));
      shorter.push(...words);
    }
    // Every printable character that ends a word, then room for a long match to run on.
    const after = [...' !"#$%&\'()*+,/:;<=>?@[\\]^`{|}~\n\t'].map((end) => `${end}${'A'.repeat(64)}`);
    after.push('');
    for (const { kind, pattern } of SECRET_PATTERNS) {
      for (const word of shorter) {
        for (const rest of after) {
          pattern.lastIndex = 0;
          if (pattern.test(word + rest))
            throw new Error(`${kind} matches the short word ${JSON.stringify(word + rest)}`);
        }
      }
    }
  });

  it.each(Object.entries(adversarialLines))(
    'passes a line of %s unchanged, whole or in chunks',
    (_shape, line) => {
      const text = `${line}\n`;
      expect(streamThrough(text, text.length) === text).toBe(true);
      expect(streamThrough(text, 4096) === text).toBe(true);
    },
  );

  it('redacts the keys planted among a megabyte of near-misses, and nothing else', () => {
    const noise = [filled('A ', 300_000), filled('sk-an ', 300_000), filled('-----BEGIN RSA ', 300_000)];
    const line = `${noise[0]}${anthropicKey} ${noise[1]}${awsKey} ${noise[2]}end\n`;
    const expected = `${noise[0]}[redacted anthropic key] ${noise[1]}[redacted aws access key] ${noise[2]}end\n`;
    expect(streamThrough(line, line.length)).toBe(expected);
    expect(streamThrough(line, 65_536)).toBe(expected);
  });
});
