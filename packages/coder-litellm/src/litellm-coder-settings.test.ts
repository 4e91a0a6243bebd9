import { CoderConfigInvalidError } from '@snodo/coder-sdk';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_OUTPUT_TOKENS, resolveCoderSettings } from './litellm-coder-settings.js';
import { defaultMaxOutputTokens } from './model-output-limit.js';

describe('resolveCoderSettings', () => {
  it('applies defaults when nothing is configured', () => {
    expect(resolveCoderSettings('litellm', {}, {})).toEqual({
      model: undefined,
      providers: {},
      prices: undefined,
      maxOutputTokens: undefined,
      maxToolTurns: 10,
      temperature: undefined,
      maxRetries: 2,
      fetch: undefined,
    });
  });

  it('lets the request coderConfig win key by key, merging provider entries per provider', () => {
    const settings = resolveCoderSettings(
      'litellm',
      {
        providers: { litellm: { base_url: 'http://proxy:4000/v1', api_key_env: 'PROXY_KEY' } },
        max_tokens: 8000,
        temperature: 0.2,
        binary: 'ignored',
      },
      { providers: { litellm: { base_url: 'http://other:4000/v1' } }, max_tokens: 32000, max_tool_turns: 4 },
    );
    expect(settings).toMatchObject({
      providers: { litellm: { base_url: 'http://other:4000/v1', api_key_env: 'PROXY_KEY' } },
      maxOutputTokens: 32000,
      maxToolTurns: 4,
      temperature: 0.2,
    });
  });

  it.each([
    [{ max_tokens: 'lots' }, 'max_tokens'],
    [{ max_tool_turns: 0 }, 'max_tool_turns'],
    [{ temperature: 7 }, 'temperature'],
    [{ providers: { openai: { base_url: 42 } } }, 'providers.openai.base_url'],
  ])('refuses %j naming the setting', (config, setting) => {
    let caught: unknown;
    try {
      resolveCoderSettings('litellm', {}, config);
    } catch (error) {
      caught = error;
    }
    expect(CoderConfigInvalidError.isInstance(caught)).toBe(true);
    expect((caught as CoderConfigInvalidError).setting).toBe(setting);
    expect((caught as Error).message).toContain(`"${setting}"`);
  });
});

describe('defaultMaxOutputTokens', () => {
  it('keeps 16000 for unknown models and caps it at a catalog model’s own output limit', () => {
    expect(defaultMaxOutputTokens('fake/coder-model')).toBe(DEFAULT_MAX_OUTPUT_TOKENS);
    expect(defaultMaxOutputTokens('openai/gpt-4o')).toBe(DEFAULT_MAX_OUTPUT_TOKENS);
    expect(defaultMaxOutputTokens('anthropic/claude-3-5-haiku-20241022')).toBe(8192);
  });
});
