import { describe, expect, it } from 'vitest';
import { buildOpencodeCliArgv } from './opencode-cli-argv.js';

describe('buildOpencodeCliArgv', () => {
  it('runs `opencode run --format json` with the prompt as one argument after --', () => {
    const prompt = '--looks like a flag\nand "quotes" $HOME';
    expect(buildOpencodeCliArgv({ binary: 'opencode', prompt, model: undefined })).toEqual([
      'opencode',
      'run',
      '--format',
      'json',
      '--',
      prompt,
    ]);
  });

  it('passes a provider/model only when one is given', () => {
    const argv = buildOpencodeCliArgv({
      binary: 'opencode',
      prompt: 'p',
      model: 'anthropic/claude-sonnet-4-5',
    });
    expect(argv).toEqual([
      'opencode',
      'run',
      '--format',
      'json',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--',
      'p',
    ]);
    expect(buildOpencodeCliArgv({ binary: 'opencode', prompt: 'p', model: undefined })).not.toContain(
      '--model',
    );
  });
});
