import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../../testing/temporary-repository.js';
import { DEFAULT_SECRET_PATTERNS, maskSecretMatch, noSecretsInDiff } from './no-secrets-in-diff.js';

let repository: TemporaryRepository;
afterEach(() => repository?.remove());

// Fake credentials are assembled at run time so that this file itself never holds a secret-shaped literal.
const awsKey = `AKIA${'QZ7XK2MPL4WN8RT3'}`;
const longToken = `${'x9'.repeat(14)}`;

describe('no_secrets_in_diff on a real diff', () => {
  it('catches a secret planted in an added line, with file, line and a masked match', async () => {
    repository = createTemporaryRepository();
    repository.write('src/config.ts', 'export const region = "eu";\n');
    repository.commit('setup');
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('src/config.ts', `export const region = "eu";\nexport const key = "${awsKey}";\n`);
    });
    const result = noSecretsInDiff({ diff, task: 't' }, {});
    expect(result.passed).toBe(false);
    expect(result.evidence?.findings).toEqual([
      { path: 'src/config.ts', line: 2, pattern: 'aws_access_key_id', masked: maskSecretMatch(awsKey) },
    ]);
    expect(result.findings?.[0]).toMatchObject({ path: 'src/config.ts', line: 2 });
    // The raw secret appears nowhere in what gets logged or fed back to the coder.
    expect(JSON.stringify(result)).not.toContain(awsKey);
    expect(JSON.stringify(result)).toContain('AKIA');
  });

  it('ignores a secret that appears only in a removed line', async () => {
    repository = createTemporaryRepository();
    repository.write('src/config.ts', `export const key = "${awsKey}";\n`);
    repository.commit('setup with a leaked key');
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('src/config.ts', 'export const key = process.env.KEY;\n');
    });
    expect(diff.patch).toContain(awsKey);
    const result = noSecretsInDiff({ diff, task: 't' }, {});
    expect(result.passed).toBe(true);
  });

  it('is not fooled by an added line that starts with "++"', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('notes.txt', `++ api_key = "${longToken}"\n`);
    });
    expect(diff.patch).toContain(`+++ api_key`);
    const result = noSecretsInDiff({ diff, task: 't' }, {});
    expect(result.passed).toBe(false);
    expect(result.evidence?.findings).toMatchObject([{ path: 'notes.txt', line: 1 }]);
  });

  it('replaces the defaults with params.patterns (Python-style (?i) accepted)', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('a.txt', `internal-ticket: ACME-1234\nkey = "${awsKey}"\n`);
    });
    const result = noSecretsInDiff({ diff, task: 't' }, { patterns: { ticket: '(?i)acme-\\d+' } });
    expect(result.passed).toBe(false);
    expect(result.evidence?.findings).toMatchObject([{ pattern: 'ticket', line: 1 }]);
  });

  it('throws on an invalid pattern, so the constraint fails closed', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => repo.write('a.txt', 'x\n'));
    expect(() => noSecretsInDiff({ diff, task: 't' }, { patterns: { broken: '(' } })).toThrow(/broken/);
  });
});

describe('default secret patterns', () => {
  const cases: [string, string][] = [
    ['aws_access_key_id', `id = ${awsKey}`],
    ['generic_secret_assignment', `API_KEY = "${longToken}"`],
    ['generic_secret_assignment', `client_secret: '${longToken}'`],
    ['password_assignment', `password = "hunter22"`],
    ['private_key_block', `-----BEGIN ${'RSA'} PRIVATE KEY-----`],
    ['private_key_block', `-----BEGIN ${'OPENSSH'} PRIVATE KEY-----`],
    ['sk_prefixed_api_key', `const k = "sk-${'proj-'}${longToken}"`],
    ['sk_prefixed_api_key', `const k = "sk-${'ant-'}api03-${longToken}"`],
    ['github_token', `token ghp_${'a1B2'.repeat(9)}`],
    ['github_token', `github_pat_${'A1b2C3d4E5'.repeat(3)}`],
    ['slack_token', `xoxb-${'1234567890'}-abcdefghij`],
  ];
  it.each(cases)('%s catches %s', (name, line) => {
    const source = DEFAULT_SECRET_PATTERNS[name] ?? '';
    const insensitive = source.startsWith('(?i)');
    const expression = new RegExp(insensitive ? source.slice(4) : source, insensitive ? 'i' : '');
    expect(expression.test(line)).toBe(true);
  });

  it.each([
    'const apiKeyName = "short";',
    'token = process.env.TOKEN',
    'password = ""',
    'const sketch = "sk-short"',
  ])('does not flag %s', (line) => {
    const flagged = Object.values(DEFAULT_SECRET_PATTERNS).some((source) => {
      const insensitive = source.startsWith('(?i)');
      return new RegExp(insensitive ? source.slice(4) : source, insensitive ? 'i' : '').test(line);
    });
    expect(flagged).toBe(false);
  });

  it('masks all but a short prefix', () => {
    expect(maskSecretMatch(awsKey)).toBe(`AKIA${'*'.repeat(12)} (20 chars)`);
    expect(maskSecretMatch('hunter2')).toBe('******* (7 chars)');
  });
});
