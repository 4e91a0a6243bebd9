import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkCommandTemplate, expandCommandTemplate } from './expand-command-template.js';

const hostilePrompt = `fix it"; rm -rf ~ ; echo $(whoami) \`id\` {model} {workspace} 'x'\n--model evil -- *`;

describe('expandCommandTemplate', () => {
  const template = ['my-cli', '--prompt', '{prompt}', '--model', '{model}', '--dir', '{workspace}'];

  it('keeps a hostile prompt as one literal argv element', () => {
    const argv = expandCommandTemplate(template, {
      prompt: hostilePrompt,
      workspace: '/tmp/w t',
      model: 'big',
    });
    expect(argv).toEqual(['my-cli', '--prompt', hostilePrompt, '--model', 'big', '--dir', '/tmp/w t']);
  });

  it('drops the model flag and its value when there is no model', () => {
    expect(expandCommandTemplate(template, { prompt: 'p', workspace: '/w', model: undefined })).toEqual([
      'my-cli',
      '--prompt',
      'p',
      '--dir',
      '/w',
    ]);
    expect(
      expandCommandTemplate(['cli', '-m', '{model}', '--model={model}', '{prompt}'], {
        prompt: 'p',
        workspace: '/w',
        model: undefined,
      }),
    ).toEqual(['cli', 'p']);
  });

  it('never drops an expanded prompt that looks like a flag', () => {
    expect(
      expandCommandTemplate(['cli', '{prompt}', '{model}'], {
        prompt: '--help',
        workspace: '/w',
        model: undefined,
      }),
    ).toEqual(['cli', '--help']);
  });

  it('substitutes placeholders inside an element', () => {
    expect(
      expandCommandTemplate(['cli', '--cwd={workspace}', '--ask={prompt}', '--model={model}'], {
        prompt: 'add tests',
        workspace: '/w',
        model: 'small',
      }),
    ).toEqual(['cli', '--cwd=/w', '--ask=add tests', '--model=small']);
  });

  it('reaches a real child process unchanged, without any shell', () => {
    const script = 'process.stdout.write(JSON.stringify(process.argv.slice(1)))';
    const argv = expandCommandTemplate(
      [process.execPath, '-e', script, '--', '--prompt', '{prompt}', '{model}'],
      {
        prompt: hostilePrompt,
        workspace: '/w',
        model: undefined,
      },
    );
    const [program, ...rest] = argv;
    const received = JSON.parse(execFileSync(program ?? '', rest, { encoding: 'utf8' })) as string[];
    expect(received).toEqual(['--prompt', hostilePrompt]);
  });
});

describe('checkCommandTemplate', () => {
  it('accepts a usable template', () => {
    expect(checkCommandTemplate(['my-cli', '-p', '{prompt}', '--model', '{model}'])).toEqual([]);
  });

  it.each([
    [[], /empty/],
    [['my-cli', '--yes'], /never passes \{prompt\}/],
    [['my-cli', '{promt}'], /\{promt\} is not a placeholder/],
    [['{workspace}/bin/cli', '{prompt}'], /program .* may not hold a placeholder/],
    [['my-cli', 42], /element 1 is not a string/],
  ])('refuses %j', (template, problem) => {
    expect(checkCommandTemplate(template).join('; ')).toMatch(problem);
  });
});
