import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture, SNODO_BIN } from '../../testing/cli-fixture.js';
import { onPseudoTerminal } from '../../testing/pseudo-terminal.js';

function onTerminal(fixture: CliFixture, args: readonly string[], waitFor: string, typed: string) {
  return onPseudoTerminal({
    argv: [process.execPath, SNODO_BIN, ...args],
    cwd: fixture.root,
    env: fixture.env,
    waitFor,
    typed,
  });
}

describe('snodo config add <provider> without the key', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());
  const configText = () => {
    try {
      return readFileSync(join(fixture!.snodoHome, 'config.yml'), 'utf8');
    } catch {
      return '';
    }
  };

  it('prompts on a terminal and never echoes the key (it refused instead)', { timeout: 60_000 }, async () => {
    fixture = createCliFixture();
    const key = 'sk-typed-at-the-prompt-0123456789';
    const { screen, exitCode } = onTerminal(
      fixture,
      ['config', 'add', 'openai'],
      'input hidden',
      `${key}x\u007f\r`,
    );
    expect(exitCode, screen).toBe(0);
    expect(screen).toContain('API key for openai (input hidden):');
    expect(screen).not.toContain('sk-typed');
    // Backspace removed the stray `x`.
    expect(configText()).toContain(`api_key: ${key}\n`);
  });

  it('Ctrl-C at the prompt stores nothing and exits 130', { timeout: 60_000 }, async () => {
    fixture = createCliFixture();
    const { screen, exitCode } = onTerminal(
      fixture,
      ['config', 'add', 'openai'],
      'input hidden',
      'sk-\u0003',
    );
    expect(exitCode, screen).toBe(130);
    expect(configText()).not.toContain('openai');
  });

  it('reads a piped key', async () => {
    fixture = createCliFixture();
    const add = await fixture.snodo(['config', 'add', 'anthropic'], { input: 'sk-ant-piped-0123456789\n' });
    expect(add.exitCode, add.all).toBe(0);
    expect(configText()).toContain('api_key: sk-ant-piped-0123456789');
  });

  it('refuses with the fix, once, when there is no terminal and nothing piped', async () => {
    fixture = createCliFixture();
    const add = await fixture.snodo(['config', 'add', 'openai']);
    expect(add.exitCode).toBe(2);
    expect(add.stderr.match(/No API key for openai/g)).toHaveLength(1);
    expect(add.stderr).toContain('printf %s "$KEY" | snodo config add openai -');
    // Not the list of every config key, which said nothing about the missing key.
    expect(add.stderr).not.toContain('Valid keys');
    expect(configText()).toBe('');
  });
});
