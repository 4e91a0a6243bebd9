import { describe, expect, it } from 'vitest';
import { looksLikeSecret } from './looks-like-secret.js';
import { SecretMatcher } from './secret-matcher.js';
import { isSecretName } from './secret-name.js';

const canary = 'sk-CANARY+test/key=42&more secret';

describe('isSecretName: the one rule for names', () => {
  it('matches secret-looking endings however the name is written', () => {
    for (const name of [
      'api_key',
      'apiKey',
      'OPENAI_API_KEY',
      'X-Api-Key',
      'GITHUB_TOKEN',
      'SOME_PASSWORD',
      'client_secret',
      'Authorization',
      'Set-Cookie',
      'AWS_SECRET_ACCESS_KEY',
      'ssh_private_key',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
  });

  it('leaves counts, settings and descriptions of credentials alone', () => {
    // Regression: `credentials` (where a coder's key comes from: `none`, `environment`) was masked as a secret.
    for (const name of [
      'inputTokens',
      'max_tokens',
      'token_count',
      'credentials',
      'credential',
      'HOME_DIR',
      '',
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
    expect(isSecretName('license', ['license'])).toBe(true);
    expect(isSecretName('model', [''])).toBe(false);
  });
});

describe('SecretMatcher', () => {
  function base64Contains(text: string, secret: string): boolean {
    for (const run of text.match(/[A-Za-z0-9+/_-]{8,}={0,2}/g) ?? []) {
      for (let shift = 0; shift < 4; shift++) {
        const decoded = Buffer.from(run.slice(shift).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
        if (decoded.includes(Buffer.from(secret))) return true;
      }
    }
    return false;
  }

  it('replaces every form a value leaks in: raw, URL- and form-encoded, base64 at every alignment', () => {
    const matcher = new SecretMatcher();
    matcher.add(canary, '[X]');
    const text = [
      canary,
      encodeURIComponent(canary),
      encodeURIComponent(canary).replace(/%20/g, '+'),
      Buffer.from(canary).toString('base64'),
      Buffer.from(canary).toString('base64').replace(/=+$/, ''),
      Buffer.from(canary).toString('base64url'),
      `Basic ${Buffer.from(`user:${canary}`).toString('base64')}`,
      Buffer.from(`xy${canary}z`).toString('base64'),
    ].join('\n');
    const redacted = matcher.redact(text);
    expect(redacted).not.toContain(canary);
    expect(base64Contains(redacted, canary)).toBe(false);
    expect(redacted.split('\n').slice(0, 6)).toEqual(['[X]', '[X]', '[X]', '[X]', '[X]', '[X]']);
  });

  it('keeps the first replacement of a value, ignores values too short, and passes text without them', () => {
    const matcher = new SecretMatcher();
    expect(matcher.add('abc', '[short]')).toBe(false);
    expect(matcher.empty).toBe(true);
    expect(matcher.redact('abc')).toBe('abc');
    matcher.add('abcd-value', '[A]');
    matcher.add('abcd-value', '[B]');
    expect(matcher.redact('x abcd-value y')).toBe('x [A] y');
    expect(matcher.partialLength('tail abcd-va')).toBe('abcd-va'.length);
    expect(matcher.partialLength('nothing here')).toBe(0);
  });
});

describe('looksLikeSecret', () => {
  it('flags long runs of key characters with letters and digits, not paths or words', () => {
    expect(looksLikeSecret('Zx81Qw00Lk55Rt77Yu99Ab')).toBe(true);
    expect(looksLikeSecret('/home/someone/.cache/some-cli')).toBe(false);
    expect(looksLikeSecret('just-a-long-setting-name')).toBe(false);
  });
});
