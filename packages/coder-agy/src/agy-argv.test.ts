import { describe, expect, it } from 'vitest';
import { buildAgyArgv } from './agy-argv.js';

describe('buildAgyArgv', () => {
  it('puts -p and the prompt last, the worktree after --add-dir, and enum flags with "="', () => {
    const prompt = '--looks like a flag\nand "quotes" $HOME';
    expect(
      buildAgyArgv({ binary: 'agy', prompt, workspace: '/w', model: undefined, printTimeoutSeconds: 660 }),
    ).toEqual([
      'agy',
      '--output-format=json',
      '--dangerously-skip-permissions',
      '--add-dir',
      '/w',
      '--print-timeout=660s',
      '-p',
      prompt,
    ]);
  });

  it('adds --model=<name> only when a model is given', () => {
    const argv = buildAgyArgv({
      binary: 'agy',
      prompt: 'p',
      workspace: '/w',
      model: 'gemini-3-pro',
      printTimeoutSeconds: 60,
    });
    expect(argv).toContain('--model=gemini-3-pro');
    expect(argv.slice(-2)).toEqual(['-p', 'p']);
    expect(
      buildAgyArgv({
        binary: 'agy',
        prompt: 'p',
        workspace: '/w',
        model: undefined,
        printTimeoutSeconds: 60,
      }).some((argument) => argument.startsWith('--model')),
    ).toBe(false);
  });
});
