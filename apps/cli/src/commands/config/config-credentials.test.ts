import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codersJsonSchema } from '../../json/coder-status-json-schema.js';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

const OPENCODE_EVENTS = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  '..',
  'packages',
  'coder-opencode-cli',
  'src',
  '__fixtures__',
  'opencode-1.18.33.jsonl',
);

/**
 * A stand-in `opencode` 1.18.33 on PATH: it writes the SHA-256 of the OpenAI key it received (or `none`)
 * into the worktree, which becomes the change snodo lands, and prints a real session's events — written
 * into the script itself: inside the sandbox only the workspace and the coder's own directory are visible,
 * and a clone under /tmp (CI's) is not.
 */
function installFakeOpencode(fixture: CliFixture): string {
  const bin = join(fixture.directory, 'bin');
  mkdirSync(bin);
  const script = `#!${process.execPath}
const fs = require('node:fs');
const crypto = require('node:crypto');
if (process.argv[2] === '--version') { process.stdout.write('1.18.33\\n'); process.exit(0); }
const key = process.env.OPENAI_API_KEY;
fs.writeFileSync('key.txt', key ? crypto.createHash('sha256').update(key).digest('hex') : 'none');
process.stdout.write(${JSON.stringify(readFileSync(OPENCODE_EVENTS, 'utf8'))});
`;
  writeFileSync(join(bin, 'opencode'), script);
  chmodSync(join(bin, 'opencode'), 0o755);
  return bin;
}

describe('provider keys stored in config', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('reach opencode-cli after `snodo config add openai`, with nothing exported', {
    timeout: 120_000,
  }, async () => {
    fixture = createCliFixture();
    const bin = installFakeOpencode(fixture);
    const env = { PATH: `${bin}:${fixture.env.PATH}` };
    const key = 'sk-stored-in-config-0123456789abcdef';
    expect((await fixture.snodo(['config', 'add', 'openai', key])).exitCode).toBe(0);

    const run = await fixture.snodo(
      ['run', 'Write key.txt', '--coder', 'opencode-cli', '-m', 'mock/pass', '--json'],
      { env },
    );

    expect(run.exitCode, run.all).toBe(0);
    expect(fixture.git(['show', 'HEAD:key.txt'])).toBe(createHash('sha256').update(key).digest('hex'));
  });

  it('are labelled with their real source in `snodo coders`', { timeout: 120_000 }, async () => {
    fixture = createCliFixture();
    const bin = installFakeOpencode(fixture);
    expect(
      (await fixture.snodo(['config', 'add', 'openai', 'sk-stored-in-config-0123456789abcdef'])).exitCode,
    ).toBe(0);
    const env = { PATH: `${bin}:${fixture.env.PATH}`, ANTHROPIC_API_KEY: 'sk-ant-exported-0123456789' };

    const json = codersJsonSchema.parse(
      JSON.parse((await snodoInProcess(fixture, ['coders', '--json'], { env })).stdout),
    );
    const source = (id: string) => json.coders.find((coder) => coder.id === id)?.credentialSource;
    expect(source('codex')).toEqual({
      kind: 'config',
      provider: 'openai',
      variable: 'CODEX_API_KEY',
      path: join(fixture.snodoHome, 'config.yml'),
    });
    expect(source('claude-code')).toEqual({ kind: 'environment', variable: 'ANTHROPIC_API_KEY' });

    const table = await snodoInProcess(fixture, ['coders'], { env });
    expect(table.exitCode, table.all).toBe(0);
    const row = (id: string) => table.stdout.split('\n').find((line) => line.startsWith(`${id} `)) ?? '';
    expect(row('codex')).toContain('config (openai)');
    expect(row('codex')).not.toContain('environment');
    expect(row('claude-code')).toContain('env ANTHROPIC_API_KEY');
    expect(table.stdout).toContain(join(fixture.snodoHome, 'config.yml'));
    expect(readFileSync(join(fixture.snodoHome, 'config.yml'), 'utf8')).toContain('openai');
  });
});
