import { describe, expect, it } from 'vitest';
import { buildGeminiCliArgv } from './gemini-cli-argv.js';

describe('buildGeminiCliArgv', () => {
  it('runs headless with stream-json, yolo approval and the prompt as the last single argument', () => {
    const prompt = '--looks like a flag\nand "quotes" $HOME';
    expect(buildGeminiCliArgv({ binary: 'gemini', prompt, model: undefined })).toEqual([
      'gemini',
      '--output-format',
      'stream-json',
      '--approval-mode',
      'yolo',
      `--prompt=${prompt}`,
    ]);
  });

  it('adds the model flag only when a model is given', () => {
    const argv = buildGeminiCliArgv({ binary: 'gemini', prompt: 'p', model: 'gemini-2.5-pro' });
    expect(argv.slice(-3)).toEqual(['--model', 'gemini-2.5-pro', '--prompt=p']);
    expect(buildGeminiCliArgv({ binary: 'gemini', prompt: 'p', model: undefined })).not.toContain('--model');
  });
});
