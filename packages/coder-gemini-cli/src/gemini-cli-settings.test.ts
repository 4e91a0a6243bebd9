import { parseCoderConfig } from '@snodo/coder-sdk';
import { describe, expect, it } from 'vitest';
import { geminiCliSettings } from './gemini-cli-environment.js';
import { geminiCliConfigSchema } from './gemini-cli-settings.js';

const parse = (config: Record<string, unknown>) =>
  parseCoderConfig('gemini-cli', geminiCliConfigSchema, config);

describe('coders.gemini-cli.max_retries', () => {
  it('becomes Gemini CLI’s general.maxAttempts, one more than the retries', () => {
    const config = parse({ max_retries: 2 });
    expect(config.maxAttempts).toBe(3);
    expect(geminiCliSettings('.snodo-instructions.md', config.maxAttempts)).toMatchObject({
      general: { maxAttempts: 3, enableAutoUpdate: false },
    });
    expect(geminiCliSettings('.snodo-instructions.md').general).not.toHaveProperty('maxAttempts');
  });

  it('is refused past what Gemini CLI honours, naming the key', () => {
    expect(() => parse({ max_retries: 10 })).toThrow(
      /"max_retries" for coder gemini-cli is invalid: must be at most 9/,
    );
  });
});
