import { describe, expect, it } from 'vitest';
import { LlmCredentialsMissingError } from './errors/llm-credentials-missing-error.js';
import { resolveCredentials } from './resolve-credentials.js';
import { resolveModel } from './resolve-model.js';

describe('resolveCredentials', () => {
  it('prefers the key in config over the environment, and never reports the value', () => {
    const credentials = resolveCredentials('anthropic', {
      providers: { anthropic: { api_key: 'sk-config-secret' } },
      env: { ANTHROPIC_API_KEY: 'sk-env-secret' },
    });
    expect(credentials).toMatchObject({ provider: 'anthropic', source: 'config', envVar: undefined });
    expect(JSON.stringify(credentials)).not.toContain('secret');
  });

  it('falls back to the default environment variable', () => {
    const credentials = resolveCredentials('openai', { env: { OPENAI_API_KEY: 'sk-env' } });
    expect(credentials).toMatchObject({ source: 'environment', envVar: 'OPENAI_API_KEY', required: true });
  });

  it('tries GOOGLE_GENERATIVE_AI_API_KEY, then GEMINI_API_KEY', () => {
    expect(resolveCredentials('google', { env: { GEMINI_API_KEY: 'g' } })).toMatchObject({
      source: 'environment',
      envVar: 'GEMINI_API_KEY',
    });
    expect(
      resolveCredentials('google', { env: { GEMINI_API_KEY: 'g', GOOGLE_GENERATIVE_AI_API_KEY: 'h' } }),
    ).toMatchObject({ envVar: 'GOOGLE_GENERATIVE_AI_API_KEY' });
  });

  it('reads google keys configured under the name gemini', () => {
    expect(resolveCredentials('google', { providers: { gemini: { api_key: 'k' } }, env: {} }).source).toBe(
      'config',
    );
  });

  it('uses api_key_env instead of the default variable', () => {
    const settings = {
      providers: { anthropic: { api_key_env: 'WORK_CLAUDE_KEY' } },
      env: { ANTHROPIC_API_KEY: 'ignored', WORK_CLAUDE_KEY: 'used' },
    };
    expect(resolveCredentials('anthropic', settings)).toMatchObject({
      source: 'environment',
      envVar: 'WORK_CLAUDE_KEY',
      envVars: ['WORK_CLAUDE_KEY'],
    });
  });

  it('ignores empty values', () => {
    const credentials = resolveCredentials('anthropic', {
      providers: { anthropic: { api_key: '  ' } },
      env: { ANTHROPIC_API_KEY: '' },
    });
    expect(credentials).toMatchObject({ source: 'none', required: true });
  });

  it('does not require a key for an OpenAI-compatible endpoint of the user', () => {
    const credentials = resolveCredentials('my-proxy', {
      providers: { 'my-proxy': { base_url: 'http://localhost:8000/v1' } },
      env: {},
    });
    expect(credentials).toMatchObject({ source: 'none', required: false, envVars: ['MY_PROXY_API_KEY'] });
  });

  it('requires an OpenRouter key even though OpenRouter is OpenAI-compatible', () => {
    expect(resolveCredentials('openrouter', { env: {} })).toMatchObject({
      required: true,
      envVars: ['OPENROUTER_API_KEY'],
    });
  });
});

describe('resolveModel without a key', () => {
  it('names the environment variable and the snodo config command', async () => {
    const failure = resolveModel('anthropic/claude-sonnet-4-5', { env: {} });
    await expect(failure).rejects.toSatisfy(LlmCredentialsMissingError.isInstance);
    await expect(failure).rejects.toThrow(
      /ANTHROPIC_API_KEY is not set.*snodo config add anthropic <key>.*export ANTHROPIC_API_KEY=<key>/,
    );
  });

  it('names both Google variables', async () => {
    await expect(resolveModel('gemini-2.5-pro', { env: {} })).rejects.toThrow(
      /none of GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY is set.*snodo config add google <key>/,
    );
  });

  it('reads nothing from process.env when an environment is given', async () => {
    process.env.SNODO_LLM_TEST_ONLY_KEY = 'from-process-env';
    try {
      const settings = { providers: { openai: { api_key_env: 'SNODO_LLM_TEST_ONLY_KEY' } }, env: {} };
      await expect(resolveModel('openai/gpt-4o', settings)).rejects.toThrow(
        /SNODO_LLM_TEST_ONLY_KEY is not set/,
      );
    } finally {
      delete process.env.SNODO_LLM_TEST_ONLY_KEY;
    }
  });
});
