import { describe, expect, it } from 'vitest';
import { isCoderAdapterV1 } from '../v1/is-coder-adapter-v1.js';
import { SubprocessCoderAdapter } from './subprocess-coder-adapter.js';

// The adapter from README.md, "Write an adapter in 20 lines", verbatim: the page must stay true.
class CustomCoder extends SubprocessCoderAdapter {
  readonly id = 'custom';
  readonly displayName = 'Custom Coder';
  readonly credentials = { envVars: ['CUSTOM_API_KEY'], configKey: 'custom' };

  readonly binary = 'custom-coder';
  readonly modelPrefix = 'custom/';
  readonly installHint = 'npm install -g custom-coder';

  buildArgv(prompt: string, workspace: string, model: string | undefined): string[] {
    const argv = [this.binary, 'run', '--dir', workspace];
    if (model !== undefined) argv.push('--model', model);
    argv.push(prompt);
    return argv;
  }
}

describe('the README adapter', () => {
  it('is a complete in-place coder-v1 adapter with the base defaults', () => {
    const coder = new CustomCoder();
    expect(isCoderAdapterV1(coder)).toBe(true);
    expect(coder).toMatchObject({
      kind: 'in-place',
      supportsAbort: true,
      versionArgs: ['--version'],
      instructionsFileName: '.snodo-instructions.md',
    });
    expect(coder.buildArgv('do it', '/w', undefined)).toEqual([
      'custom-coder',
      'run',
      '--dir',
      '/w',
      'do it',
    ]);
  });
});
