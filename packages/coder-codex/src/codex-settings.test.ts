import { parseCoderConfig } from '@snodo/coder-sdk';
import { describe, expect, it } from 'vitest';
import { codexConfigToml } from './codex-home.js';
import { codexConfigSchema } from './codex-settings.js';

const parse = (config: Record<string, unknown>) => parseCoderConfig('codex', codexConfigSchema, config);

describe('coders.codex.max_retries', () => {
  it('bounds the custom provider’s request and stream retries', () => {
    const toml = codexConfigToml(parse({ base_url: 'http://127.0.0.1:4000/v1', max_retries: 2 }));
    expect(toml).toContain('request_max_retries = 2');
    expect(toml).toContain('stream_max_retries = 2');
    expect(codexConfigToml(parse({ base_url: 'http://127.0.0.1:4000/v1' }))).not.toContain('max_retries');
  });

  it('is refused without base_url and outside 0–100, naming the key', () => {
    expect(() => parse({ max_retries: 2 })).toThrow(
      /"max_retries" for coder codex is invalid: max_retries needs base_url/,
    );
    expect(() => parse({ base_url: 'http://127.0.0.1:4000/v1', max_retries: -1 })).toThrow(
      /coders\.codex\.max_retries/,
    );
  });
});
