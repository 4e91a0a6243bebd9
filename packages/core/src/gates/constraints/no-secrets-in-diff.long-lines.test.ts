import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../../testing/temporary-repository.js';
import { DEFAULT_SECRET_PATTERNS, maskSecretMatch, noSecretsInDiff } from './no-secrets-in-diff.js';

let repository: TemporaryRepository | undefined;
afterEach(() => {
  repository?.remove();
  repository = undefined;
});

// Fake credentials are assembled at run time so that this file itself never holds a secret-shaped literal.
const awsKey = `AKIA${'QZ7XK2MPL4WN8RT3'}`;
const longToken = 'x9'.repeat(14);
const megabyte = 1024 * 1024;

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

// Regression (issue 14): the assignment patterns took over a minute on one 200 KB line; these lines, 1 MB
// each, kept the gate busy for hours. Each is built against one pattern's shape.
const adversarialLines: Record<string, string> = {
  'a…': filled('a'),
  'AKIA…': filled('AKIA'),
  base64: base64Like(megabyte),
  '=…': filled('='),
  'token=…': filled('token='),
  'password=" password=…': `password="${filled(' password=')}`,
  'api_key: "…': filled('api_key: "x9'),
  '-----BEGIN A A…': `-----BEGIN ${filled('A ')}`,
  '-----BEGIN …  PRIVATE KEY-----': `-----BEGIN ${filled('A ')} PRIVATE KEY-----`,
  'ghp_…': filled('ghp_'),
  'sk-a.…': filled('sk-a.'),
  secret: filled('secret'),
};

describe('no_secrets_in_diff on 1 MB lines', () => {
  it('passes lines built to make the patterns backtrack, and says how many lines it read', async () => {
    repository = createTemporaryRepository();
    const names = Object.keys(adversarialLines);
    const diff = await commitAndDiff(repository, (repo) => {
      for (const [index, name] of names.entries())
        repo.write(`long/${index}.txt`, `${adversarialLines[name]}\n`);
    });
    const result = noSecretsInDiff({ diff, task: 't' }, {});
    expect(result.evidence?.findings).toBeUndefined();
    expect(result.passed).toBe(true);
    expect(result.evidence?.addedLines).toBe(names.length);
  });

  it('finds each secret hidden in a long line, at its line, with its pattern', async () => {
    repository = createTemporaryRepository();
    const planted = [
      filled('a', 300_000),
      awsKey,
      filled('AKIA', 300_000),
      `api_key = "${longToken}"`,
      filled('=', 100_000),
      `-----BEGIN ${'RSA'} PRIVATE KEY-----`,
      base64Like(300_000),
      `db_password: 'hunter22'`,
    ].join(' ');
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('notes.txt', `first line\n${planted}\n${filled('token=', 500_000)}\n`);
    });
    const result = noSecretsInDiff({ diff, task: 't' }, {});
    expect(result.passed).toBe(false);
    expect(result.evidence?.findings).toEqual([
      { path: 'notes.txt', line: 2, pattern: 'aws_access_key_id', masked: maskSecretMatch(awsKey) },
      {
        path: 'notes.txt',
        line: 2,
        pattern: 'generic_secret_assignment',
        masked: maskSecretMatch(`api_key = "${longToken}"`),
      },
      {
        path: 'notes.txt',
        line: 2,
        pattern: 'password_assignment',
        masked: maskSecretMatch(`db_password: 'hunter22'`),
      },
      {
        path: 'notes.txt',
        line: 2,
        pattern: 'private_key_block',
        masked: maskSecretMatch(`-----BEGIN ${'RSA'} PRIVATE KEY-----`),
      },
    ]);
  });

  it('reports a key that fills a whole 1 MB line once, with its full length', async () => {
    repository = createTemporaryRepository();
    const key = `sk-${filled('a', megabyte - 3)}`;
    const diff = await commitAndDiff(repository, (repo) => repo.write('key.txt', `${key}\n`));
    const result = noSecretsInDiff({ diff, task: 't' }, {});
    expect(result.evidence?.findings).toEqual([
      { path: 'key.txt', line: 1, pattern: 'sk_prefixed_api_key', masked: maskSecretMatch(key) },
    ]);
    expect(maskSecretMatch(key)).toContain(`(${megabyte} chars)`);
  });
});

/**
 * The default patterns as first written: quadratic on long lines, but the plain statement of what each
 * finds. The linear rewrites must find exactly the same text at exactly the same places.
 */
const plainForms: Record<string, RegExp> = {
  generic_secret_assignment:
    /[a-z0-9_.-]*(?:api[_-]?key|secret|token)[a-z0-9_.-]*["']?\s*[:=]\s*["'][^"'\s]{20,}["']/gi,
  password_assignment: /[a-z0-9_.-]*passw(?:or)?d[a-z0-9_.-]*["']?\s*[:=]\s*["'][^"']{4,}["']/gi,
  private_key_block: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
  sk_prefixed_api_key: /\bsk-(?:ant-)?(?:[a-z]+-)?[A-Za-z0-9_-]{20,}/g,
};

/**
 * Short lines that sit on every edge of those patterns, the same ones on every run: each is a few
 * near-misses and hits of an assignment, a key header or an `sk-` key, each part picked from variants.
 */
function generatedLines(count: number): string[] {
  let state = 7;
  const pick = (choices: readonly string[]) => {
    // xorshift32: consecutive picks must not be correlated, or some combinations never come up.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return choices[(state >>> 0) % choices.length] ?? '';
  };
  const junk = ['', ' ', 'a', '"', "'", '=', ':', '\t', '.', '-', 'é', '+', 'x9', 'token', 'password', 'sk-'];
  const keys = [
    'token',
    'TOKEN',
    'my_api-key',
    'client.secret',
    'APIKEY',
    'passwd',
    'db_PassWord',
    'tok',
    'a',
  ];
  const values = [
    'x9'.repeat(10),
    'x9'.repeat(9),
    'hunter22',
    'abc',
    'a b c d',
    `x9x9"x9`,
    `${'x9'.repeat(11)} tail`,
    '',
  ];
  const headerWords = ['', 'RSA ', 'OPENSSH ', 'A  ', ' ', 'PRIVATE ', 'KEY ', '-', 'x '];
  const parts: (() => string)[] = [
    () =>
      pick(keys) +
      pick(['', '"', "'"]) +
      pick(['', ' ', '  ']) +
      pick([':', '=', '', ' ']) +
      pick(['', ' ']) +
      pick(['"', "'", '']) +
      pick(values) +
      pick(['"', "'", '']),
    () =>
      pick(['-----BEGIN ', '-----BEGIN', '----BEGIN ']) +
      pick(headerWords) +
      pick(headerWords) +
      pick(['PRIVATE KEY', 'PRIVATE  KEY', 'PRIVATE', '']) +
      pick(['', ' BLOCK', ' ']) +
      pick(['-----', '----', '']),
    () =>
      pick(['sk-', 'x-sk-', '_sk-', 'sk']) +
      pick(['', 'ant-', 'proj-']) +
      pick(['', 'api03-']) +
      pick(values),
  ];
  return Array.from({ length: count }, () => {
    let line = pick(junk);
    for (const part of parts) line += pick(['', 'use']) === '' ? '' : part() + pick(junk);
    return line + pick(junk);
  });
}

describe('the linear default patterns', () => {
  it('find exactly what their plain forms find, at the same places', () => {
    const lines = generatedLines(40_000);
    for (const [name, plain] of Object.entries(plainForms)) {
      let matched = 0;
      const source = DEFAULT_SECRET_PATTERNS[name] ?? '';
      const insensitive = source.startsWith('(?i)');
      const linear = new RegExp(insensitive ? source.slice(4) : source, insensitive ? 'gi' : 'g');
      for (const line of lines) {
        const expected = [...line.matchAll(plain)].map((match) => `${match.index}:${match[0]}`);
        const actual = [...line.matchAll(linear)].map((match) => `${match.index}:${match[0]}`);
        expect(actual, `${name} on ${JSON.stringify(line)}`).toEqual(expected);
        matched += expected.length;
      }
      // The lines do reach the pattern: a comparison of nothing with nothing would prove nothing.
      expect(matched, name).toBeGreaterThan(100);
    }
  });
});
