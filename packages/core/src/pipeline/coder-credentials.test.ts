import type { CoderAdapterV1, CoderV1Credentials } from '@snodo/coder-sdk';
import { describe, expect, it } from 'vitest';
import type { SnodoConfig } from '../config/index.js';
import { lookUpCoderCredentials } from './coder-credentials.js';

/** Only what the lookup reads of an adapter: its credentials and model prefix. */
function adapter(credentials: CoderV1Credentials, modelPrefix?: string): CoderAdapterV1 {
  return { credentials, ...(modelPrefix === undefined ? {} : { modelPrefix }) } as unknown as CoderAdapterV1;
}

/** OpenCode's declaration: several providers' variables, its own login, no single provider. */
const opencodeLike = adapter(
  {
    envVars: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    optional: true,
  },
  'opencode-cli/',
);
const claudeLike = adapter({
  envVars: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
  configKey: 'anthropic',
});
const geminiLike = adapter({ envVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], configKey: 'google' });

const stored = (providers: NonNullable<SnodoConfig['providers']>): SnodoConfig => ({ providers });

describe('lookUpCoderCredentials', () => {
  it('hands a multi-provider coder the key stored with `snodo config add openai` (it was never passed)', () => {
    const found = lookUpCoderCredentials(opencodeLike, stored({ openai: { api_key: 'sk-stored' } }), {});
    expect(found.variables).toEqual({ OPENAI_API_KEY: 'sk-stored' });
    expect(found.origin).toEqual({ kind: 'config', provider: 'openai', variable: 'OPENAI_API_KEY' });
  });

  it("prefers the coder model's provider, and a stored key over the environment", () => {
    const config = stored({ openai: { api_key: 'sk-stored' }, anthropic: { api_key: 'sk-ant-stored' } });
    const env = { ANTHROPIC_API_KEY: 'sk-ant-env', OPENAI_API_KEY: 'sk-env' };
    expect(lookUpCoderCredentials(opencodeLike, config, env, 'opencode-cli/openai/gpt-4o').variables).toEqual(
      {
        OPENAI_API_KEY: 'sk-stored',
      },
    );
    expect(lookUpCoderCredentials(opencodeLike, {}, env, 'opencode-cli/openai/gpt-4o')).toMatchObject({
      variables: { OPENAI_API_KEY: 'sk-env' },
      origin: { kind: 'environment', variable: 'OPENAI_API_KEY' },
    });
  });

  it('passes only one key, never every provider key it can find', () => {
    const config = stored({ openai: { api_key: 'sk-stored' }, openrouter: { api_key: 'sk-or' } });
    const found = lookUpCoderCredentials(opencodeLike, config, { ANTHROPIC_API_KEY: 'sk-ant-env' });
    expect(Object.keys(found.variables)).toHaveLength(1);
  });

  it('keeps the single-provider order: stored key, then api_key_env, then its own variables', () => {
    expect(
      lookUpCoderCredentials(claudeLike, stored({ anthropic: { api_key: 'sk-ant-stored' } }), {
        ANTHROPIC_API_KEY: 'sk-ant-env',
      }),
    ).toMatchObject({ variables: { ANTHROPIC_API_KEY: 'sk-ant-stored' }, source: 'config' });
    expect(
      lookUpCoderCredentials(claudeLike, stored({ anthropic: { api_key_env: 'WORK_KEY' } }), {
        WORK_KEY: 'sk-work',
      }),
    ).toEqual({
      variables: { ANTHROPIC_API_KEY: 'sk-work' },
      source: 'environment',
      origin: { kind: 'environment', variable: 'WORK_KEY' },
    });
    // A stored OpenAI key is no key of Claude Code's.
    expect(lookUpCoderCredentials(claudeLike, stored({ openai: { api_key: 'sk-stored' } }), {})).toEqual({
      variables: {},
      source: 'none',
    });
  });

  it('finds the Google key stored as `gemini` (what `snodo config add gemini` writes)', () => {
    expect(lookUpCoderCredentials(geminiLike, stored({ gemini: { api_key: 'g-stored' } }), {})).toMatchObject(
      {
        variables: { GEMINI_API_KEY: 'g-stored' },
        origin: { kind: 'config', provider: 'gemini' },
      },
    );
  });

  it("passes every variable a command coder's credentials list names, the first fed from config", () => {
    const acme = {
      ...adapter({ envVars: ['ACME_API_KEY'], configKey: 'acme' }),
      id: 'acme',
    } as CoderAdapterV1;
    const config: SnodoConfig = {
      coders: { acme: { command: ['acme', '{prompt}'], credentials: ['ACME_API_KEY', 'ACME_ORG_TOKEN'] } },
    };
    const env = { ACME_API_KEY: 'from-env', ACME_ORG_TOKEN: 'org-secret', OTHER_SECRET: 'no' };
    expect(lookUpCoderCredentials(acme, config, env).variables).toEqual({
      ACME_API_KEY: 'from-env',
      ACME_ORG_TOKEN: 'org-secret',
    });
    const withStored = { ...config, providers: { acme: { api_key: 'stored-key' } } };
    const found = lookUpCoderCredentials(acme, withStored, { ACME_ORG_TOKEN: 'org-secret' });
    expect(found.variables).toEqual({ ACME_API_KEY: 'stored-key', ACME_ORG_TOKEN: 'org-secret' });
    expect(found.origin).toEqual({ kind: 'config', provider: 'acme', variable: 'ACME_API_KEY' });
  });
});
