import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configShowJsonSchema } from '../../json/environment-json-schemas.js';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';
import { loadedModules } from '../../testing/loaded-modules.js';

// Adding a key (its 0600 file, from argv and from stdin) and the start-up check go through the built binary;
// the other commands only read or write config.yml and run in process (testing/in-process-cli.ts).
describe('snodo config', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('stores a provider key (0600), shows it masked, and removes it', async () => {
    fixture = createCliFixture();
    const key = 'sk-ant-abcdefghijklmnopqrstuvwxyz0123';
    const add = await fixture.snodo(['config', 'add', 'anthropic', key]);
    expect(add.exitCode, add.all).toBe(0);
    const path = join(fixture.snodoHome, 'config.yml');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toContain(key);

    const show = await snodoInProcess(fixture, ['config', 'show']);
    expect(show.exitCode, show.all).toBe(0);
    expect(show.stdout).toContain('sk-a…0123');
    expect(show.stdout).not.toContain(key);

    const json = configShowJsonSchema.parse(
      JSON.parse((await snodoInProcess(fixture, ['config', 'show', '--json'])).stdout),
    );
    expect(JSON.stringify(json.config)).not.toContain(key);

    const get = await snodoInProcess(fixture, ['config', 'get', 'providers.anthropic.api_key']);
    expect(get.stdout.trim()).toBe('sk-a…0123');

    const remove = await snodoInProcess(fixture, ['config', 'remove', 'anthropic']);
    expect(remove.exitCode).toBe(0);
    expect(readFileSync(path, 'utf8')).not.toContain(key);
  });

  it('reads the key from stdin, so it need not appear on the command line', async () => {
    fixture = createCliFixture();
    const add = await fixture.snodo(['config', 'add', 'openrouter', '-'], {
      input: 'sk-or-from-stdin-0123456789\n',
    });
    expect(add.exitCode, add.all).toBe(0);
    expect(readFileSync(join(fixture.snodoHome, 'config.yml'), 'utf8')).toContain(
      'sk-or-from-stdin-0123456789',
    );
  });

  it('sets, gets and unsets a value, and prints the path', async () => {
    fixture = createCliFixture();
    expect(
      (await snodoInProcess(fixture, ['config', 'set', 'llm.validator.model', 'anthropic/claude-sonnet-4-5']))
        .exitCode,
    ).toBe(0);
    const get = await snodoInProcess(fixture, ['config', 'get', 'llm.validator.model']);
    expect(get.stdout.trim()).toBe('anthropic/claude-sonnet-4-5');
    expect((await snodoInProcess(fixture, ['config', 'unset', 'llm.validator.model'])).exitCode).toBe(0);
    expect((await snodoInProcess(fixture, ['config', 'get', 'llm.validator.model'])).stdout).toContain(
      '(not set)',
    );
    const path = await snodoInProcess(fixture, ['config', 'path']);
    expect(path.stdout.trim()).toBe(join(fixture.snodoHome, 'config.yml'));
  });

  it('refuses an unknown key with exit 2, listing the valid ones', async () => {
    fixture = createCliFixture();
    const set = await snodoInProcess(fixture, ['config', 'set', 'llm.judge.model', 'x/y']);
    expect(set.exitCode).toBe(2);
    expect(set.stderr).toContain('error: Cannot use config key `llm.judge.model`');
    expect(set.stderr).toContain('llm.validator.model');
  });

  it('exits 2 and names the file and line of a broken config', async () => {
    fixture = createCliFixture();
    fixture.writeConfig('model: [unclosed\n');
    const show = await snodoInProcess(fixture, ['config', 'set', 'model', 'openai/gpt-4o']);
    expect(show.exitCode).toBe(2);
    expect(show.stderr).toMatch(/config\.yml:\d+:\d+/);
  });

  it('reads and lists config without loading the pipeline, the audit log or the AI SDK (the built binary)', async () => {
    fixture = createCliFixture();
    fixture.writeConfig('llm:\n  validator:\n    model: openai/gpt-4o\n');
    for (const args of [
      ['config', 'get', 'llm.validator.model'],
      ['config', 'keys'],
      ['config', 'show'],
    ]) {
      const { result, sources } = await loadedModules(fixture, args);
      expect(result.exitCode, result.all).toBe(0);
      expect(sources.some((source) => source.includes('/packages/core/src/config/'))).toBe(true);
      const pipeline =
        /\/node_modules\/(ai|@ai-sdk\/[^/]+|picomatch)\/|\/packages\/(audit|llm|coder-[^/]+)\/|\/packages\/core\/src\/(pipeline|audit-trail)\//;
      expect(
        sources.filter((source) => pipeline.test(source)),
        `snodo ${args.join(' ')}`,
      ).toEqual([]);
    }
    expect((await fixture.snodo(['config', 'get', 'llm.validator.model'])).stdout).toBe('openai/gpt-4o');
  });
});
