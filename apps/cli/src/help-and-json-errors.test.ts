import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorJsonSchema } from './json/error-json-schema.js';
import { type CliFixture, createCliFixture } from './testing/cli-fixture.js';

describe('snodo help', () => {
  let fixture: CliFixture;
  beforeAll(() => {
    fixture = createCliFixture({ git: false });
  });
  afterAll(() => fixture.cleanup());

  it('`snodo help` prints the help and exits 0 (it exited 2)', async () => {
    const help = await fixture.snodo(['help'], { cwd: fixture.home });
    expect(help.exitCode, help.all).toBe(0);
    expect(help.stdout).toContain('Usage: snodo [options] [command]');
    expect(help.stdout).toContain('Start here:');
  });

  it('`snodo help <command>` prints that command’s help and exits 0', async () => {
    const run = await fixture.snodo(['help', 'run'], { cwd: fixture.home });
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toContain('Usage: snodo run');
    const set = await fixture.snodo(['help', 'config'], { cwd: fixture.home });
    expect(set.exitCode, set.all).toBe(0);
    expect(set.stdout).toContain('Usage: snodo config');
  });

  it('`snodo help <typo>` is a usage error naming the commands, not the general help', async () => {
    const typo = await fixture.snodo(['help', 'rnu'], { cwd: fixture.home });
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('There is no command `rnu`');
    expect(typo.stderr).toContain('run, coders');
  });
});

describe('errors under --json', () => {
  let fixture: CliFixture;
  beforeAll(() => {
    fixture = createCliFixture();
  });
  afterAll(() => fixture.cleanup());

  /** Runs a failing command with `--json`: stdout must be exactly one error document. */
  async function failing(args: readonly string[], cwd?: string) {
    const result = await fixture.snodo(args, cwd === undefined ? {} : { cwd });
    const document = errorJsonSchema.parse(JSON.parse(result.stdout));
    expect(document.exitCode).toBe(result.exitCode);
    return { result, document };
  }

  it('a snodo error is a JSON document with code, message, fix and version, and the usual exit code', async () => {
    const { result, document } = await failing(['meta', 'j_doesnotexist', '--json']);
    expect(result.exitCode).toBe(2);
    expect(document).toMatchObject({ version: 1, type: 'error', code: 'JOB_NOT_FOUND' });
    expect(document.message).toContain('j_doesnotexist');
    // The human text still goes to stderr.
    expect(result.stderr).toContain('error:');
  });

  it('a bad config key under --json names the code and the nearest keys', async () => {
    const { document } = await failing(['config', 'get', 'coders.codex.base_ur', '--json']);
    expect(document.code).toBe('CONFIG_KEY_INVALID');
    expect(document.message).toContain('coders.codex.base_url');
  });

  it('a usage error commander raises is JSON too', async () => {
    const { result, document } = await failing(['task', 'list', '--json', '--no-such-flag']);
    expect(result.exitCode).toBe(2);
    expect(document.code).toBe('commander.unknownOption');
    expect(document.message).toContain('--no-such-flag');
  });

  it('an error that carries the command fixing it has that command as `fix`', async () => {
    const { result, document } = await failing(['models', '--provider', 'nosuchprovider', '--json']);
    expect(result.exitCode).toBe(2);
    expect(document.code).toBe('CLI_USAGE');
    expect(document.fix).toBe('snodo models   (every provider), or snodo models --search <text>');
  });

  it('an error outside a repository', async () => {
    const { result, document } = await failing(['meta', 'last', '--json'], fixture.home);
    expect(result.exitCode).toBe(2);
    expect(document.code).toBe('NOT_A_GIT_REPOSITORY');
  });

  it('without --json stdout stays empty', async () => {
    const result = await fixture.snodo(['meta', 'j_doesnotexist']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
  });
});
