import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCli } from './create-fake-cli.js';
import type { FakeCliScenario } from './fake-cli-scenario.js';
import { FakeCliScenarioError } from './fake-cli-scenario-error.js';

let root: string;
let bin: string;
let work: string;

const gitEnvironment = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: os.devNull,
  GIT_AUTHOR_NAME: 'Setup',
  GIT_AUTHOR_EMAIL: 'setup@example.com',
  GIT_COMMITTER_NAME: 'Setup',
  GIT_COMMITTER_EMAIL: 'setup@example.com',
};
const git = (args: string[]) =>
  execFileSync('git', args, { cwd: work, env: gitEnvironment, encoding: 'utf8' });

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'snodo-fake-cli-test-'));
  bin = path.join(root, 'bin');
  work = path.join(root, 'work');
  mkdirSync(bin);
  mkdirSync(work);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function run(cliPath: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  return spawnSync(cliPath, args, {
    cwd: work,
    encoding: 'utf8',
    input: options.input ?? '',
    env: options.env ?? gitEnvironment,
  });
}

describe('createFakeCli', () => {
  it('writes an executable that answers the version probe and records nothing for it', () => {
    const cli = createFakeCli({ directory: bin, name: 'claude', version: '2.1.3 (Claude Code)' });
    expect(statSync(cli.path).mode & 0o777).toBe(0o755);
    expect(run(cli.path, ['--version']).stdout).toBe('2.1.3 (Claude Code)\n');
    expect(cli.readRecord()).toBeUndefined();
  });

  it('uses the configured version arguments and treats anything else as a run', () => {
    const cli = createFakeCli({
      directory: bin,
      name: 'codex',
      version: 'codex-cli 0.171.0',
      versionArgs: ['version'],
    });
    expect(run(cli.path, ['version']).stdout).toBe('codex-cli 0.171.0\n');
    expect(run(cli.path, ['--version']).stdout).toBe('');
    expect(cli.readRecord()?.argv).toEqual(['--version']);
  });

  it('answers the version probe without starting node, quoting and all', () => {
    const version = `it's 100% "real" $HOME \\n 2.1.3`;
    const cli = createFakeCli({ directory: bin, name: 'fake', version, versionArgs: ['-v', "it's", '$1'] });
    // No node on PATH: the probe still answers (the shell does it), any other run cannot start.
    const noNode = { PATH: path.join(root, 'no-node-here') };
    expect(run(cli.path, ['-v', "it's", '$1'], { env: noNode })).toMatchObject({
      status: 0,
      stdout: `${version}\n`,
    });
    expect(run(cli.path, ['-v', "it's", '$2'], { env: noNode }).status).not.toBe(0);
    expect(run(cli.path, ['-v', "it's"], { env: noNode }).status).not.toBe(0);
    expect(cli.readRecord()).toBeUndefined();
  });

  it('answers a version with a line break through node, as it prints it', () => {
    const cli = createFakeCli({ directory: bin, name: 'fake', version: 'fake 1.0\nbuild 7\n' });
    expect(run(cli.path, ['--version']).stdout).toBe('fake 1.0\nbuild 7\n');
    expect(run(cli.path, ['--version'], { env: { PATH: path.join(root, 'no-node-here') } }).status).not.toBe(
      0,
    );
    expect(cli.readRecord()).toBeUndefined();
  });

  it('records argv exactly, its environment and working directory', () => {
    const cli = createFakeCli({ directory: bin, name: 'fake', version: '1.0.0' });
    const tricky = '--leading "quoted" $(not run)\nsecond line';
    run(cli.path, ['exec', tricky, ''], { env: { PATH: process.env.PATH, ONLY_THIS: 'yes' } });
    const record = cli.readRecord();
    expect(record?.argv).toEqual(['exec', tricky, '']);
    expect(record?.env.ONLY_THIS).toBe('yes');
    // Exactly what the caller passed: the shell launcher in front of node adds no PWD.
    expect(Object.keys(record?.env ?? {}).sort()).toEqual(['ONLY_THIS', 'PATH']);
    expect(record?.cwd).toBe(work);
    expect(record?.finished).toBe(true);
    expect(cli.readProcessIds().cli).toEqual([record?.pid]);
  });

  it('edits, commits, plants a hook and sets core.hooksPath in the repository it runs in', () => {
    git(['init', '-q', '-b', 'main']);
    writeFileSync(path.join(work, 'a.txt'), 'a\n');
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'initial']);
    const hooks = path.join(root, 'hooks');
    const cli = createFakeCli({
      directory: bin,
      name: 'fake',
      version: '1.0.0',
      scenario: {
        steps: [
          { writeFile: { path: 'src/new.txt', content: 'new\n' } },
          { deleteFile: { path: 'a.txt' } },
          { commit: { message: 'cli work\n\nCo-Authored-By: Claude <noreply@anthropic.com>' } },
          { writeFile: { path: '.snodo/protocol.yml', content: 'loosened\n' } },
          { plantHook: { name: 'pre-commit', content: '#!/bin/sh\nexit 0\n' } },
          { setHooksPath: hooks },
        ],
      },
    });
    expect(run(cli.path, ['run']).status).toBe(0);
    expect(git(['log', '-1', '--format=%an <%ae>%n%B'])).toBe(
      'Fake CLI <fake-cli@conformance.invalid>\ncli work\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n\n',
    );
    expect(git(['show', '--name-status', '--format=', 'HEAD']).trim().split('\n').sort()).toEqual([
      'A\tsrc/new.txt',
      'D\ta.txt',
    ]);
    expect(readFileSync(path.join(work, '.snodo', 'protocol.yml'), 'utf8')).toBe('loosened\n');
    expect(existsSync(path.join(work, '.git', 'hooks', 'pre-commit'))).toBe(true);
    expect(git(['config', '--get', 'core.hooksPath']).trim()).toBe(hooks);
  });

  it('prints megabytes and output, writes stderr and exits with the scenario’s code', () => {
    const cli = createFakeCli({
      directory: bin,
      name: 'fake',
      version: '1.0.0',
      scenario: {
        steps: [{ printMegabytes: 2 }, { stdout: 'END\n' }, { stderr: 'it broke\n' }],
        exitCode: 3,
      },
    });
    const result = spawnSync(cli.path, ['run'], { cwd: work, encoding: 'utf8', maxBuffer: 8 << 20 });
    expect(result.status).toBe(3);
    expect(result.stdout.length).toBe(2 * 1024 * 1024 + 4);
    expect(result.stdout.endsWith('x\nEND\n')).toBe(true);
    expect(result.stderr).toBe('it broke\n');
  });

  it('reads stdin to its end and records how much it read', () => {
    const cli = createFakeCli({
      directory: bin,
      name: 'fake',
      version: '1.0.0',
      scenario: { readStdin: true },
    });
    run(cli.path, ['run'], { input: 'twelve bytes' });
    expect(cli.readRecord()?.stdinBytes).toBe(12);
  });

  it('says where it saw the instructions marker: a file in its directory, an argument, a file an argument names', () => {
    const marker = 'marker-123';
    writeFileSync(path.join(work, '.snodo-instructions.md'), `# rules\n${marker}\n`);
    const outside = path.join(root, 'instructions.md');
    writeFileSync(outside, marker);
    const cli = createFakeCli({
      directory: bin,
      name: 'fake',
      version: '1.0.0',
      scenario: { instructionsMarker: marker },
    });
    run(cli.path, ['run', `--system=${marker}`, '--instructions-file', outside]);
    expect(cli.readRecord()?.instructions).toEqual([
      { via: 'workspace', path: '.snodo-instructions.md' },
      { via: 'argument', argumentIndex: 1 },
      { via: 'argument-file', path: outside, argumentIndex: 3 },
    ]);
  });

  it('runs under a package.json that declares ES modules', () => {
    writeFileSync(path.join(bin, 'package.json'), '{"type":"module"}\n');
    const cli = createFakeCli({
      directory: bin,
      name: 'fake',
      version: '9.9.9',
      scenario: { steps: [{ stdout: 'ok\n' }] },
    });
    expect(run(cli.path, ['--version']).stdout).toBe('9.9.9\n');
    expect(run(cli.path, ['go']).stdout).toBe('ok\n');
  });

  it('reads a new scenario on its next run', () => {
    const cli = createFakeCli({ directory: bin, name: 'fake', version: '1.0.0' });
    cli.setScenario({ exitCode: 7 });
    expect(run(cli.path, ['go']).status).toBe(7);
  });

  it('refuses an invalid scenario before writing anything, saying what is wrong', () => {
    const scenario = { steps: [{ writeFile: { path: '../escape.txt', content: '' } }], hang: 'yes' };
    let caught: unknown;
    try {
      createFakeCli({
        directory: bin,
        name: 'fake',
        version: '1.0.0',
        scenario: scenario as unknown as FakeCliScenario,
      });
    } catch (error) {
      caught = error;
    }
    expect(FakeCliScenarioError.isInstance(caught)).toBe(true);
    expect((caught as FakeCliScenarioError).code).toBe('FAKE_CLI_SCENARIO_INVALID');
    expect((caught as Error).message).toContain('steps.0');
    expect((caught as Error).message).toContain('hang');
    expect(existsSync(path.join(bin, 'fake'))).toBe(false);
  });
});
