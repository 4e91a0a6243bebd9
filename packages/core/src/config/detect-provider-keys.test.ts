import { describe, expect, it } from 'vitest';
import { detectProviderKeys } from './detect-provider-keys.js';
import { maskSecret } from './mask-secrets.js';

describe('detectProviderKeys', () => {
  const env = {
    ALPHA_API_KEY: 'a-secret-value',
    BETA_API_KEY: '   ',
    GAMMA_TOKEN: 'g-secret-value',
    PATH: '/usr/bin',
    lower_api_key: 'x',
  };

  it('lists every set *_API_KEY variable when no names are given, names only', () => {
    const found = detectProviderKeys(env);
    expect(found).toEqual(['ALPHA_API_KEY']);
    expect(JSON.stringify(found)).not.toContain('secret');
  });

  it('checks exactly the names the caller passes', () => {
    expect(
      detectProviderKeys(env, { names: ['GAMMA_TOKEN', 'BETA_API_KEY', 'DELTA_API_KEY', 'GAMMA_TOKEN'] }),
    ).toEqual(['GAMMA_TOKEN']);
  });
});

describe('maskSecret', () => {
  it('shows the ends of a long key and nothing of a short one', () => {
    expect(maskSecret('abcd0123456789wxyz')).toBe('abcd…wxyz');
    expect(maskSecret('short-key')).toBe('********');
    expect(maskSecret('')).toBe('********');
  });
});
