import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoderV1Request } from '@snodo/coder-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCoderRegistry } from './coder-registry.js';
import { createConfigCoderRegistrations } from './config-coder-registrations.js';

// A real run of a command-template coder on the SDK's SubprocessCoderAdapter: a tiny "CLI" (a node script)
// records the argv it received into the worktree, the base commits it, and the test reads it back.

const hostilePrompt = `add "x"; rm -rf ~ && echo $(id) \`whoami\` {model} > /tmp/owned\n--dir /etc`;

let root: string;
let repository: string;
let cli: string;

const gitEnvironment = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repository,
    encoding: 'utf8',
    env: { ...process.env, ...gitEnvironment, HOME: root },
  }).trim();
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'snodo-command-coder-'));
  repository = join(root, 'repository');
  mkdirSync(repository);
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(repository, 'README.md'), 'hello\n');
  git('add', 'README.md');
  git('commit', '--quiet', '-m', 'initial');
  cli = join(root, 'fake-cli.mjs');
  writeFileSync(
    cli,
    [
      "import { writeFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      'const args = process.argv.slice(2);',
      "const directory = args[args.indexOf('--dir') + 1];",
      "writeFileSync(join(directory, 'argv.json'), JSON.stringify(args));",
    ].join('\n'),
  );
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function request(model: string | undefined): CoderV1Request {
  return {
    jobId: 'j_command1',
    attempt: 1,
    task: 'record the argv',
    prompt: hostilePrompt,
    workspace: repository,
    model,
    env: { PATH: process.env.PATH ?? '', HOME: root, ...gitEnvironment },
    timeoutMs: 60_000,
    abortSignal: new AbortController().signal,
    instructions: 'Record what you were given.',
    instructionsPath: join(root, 'instructions.md'),
    transcriptPath: join(root, 'transcript.log'),
    coderConfig: {},
    emit: () => {},
  };
}

async function runCommandCoder(model: string | undefined) {
  const coders = {
    mine: {
      command: [process.execPath, cli, '--prompt', '{prompt}', '--model', '{model}', '--dir', '{workspace}'],
    },
  };
  const registry = createCoderRegistry({
    registrations: createConfigCoderRegistrations({ coders, resolveFrom: [] }),
    defaultCoderId: 'mine',
    settings: coders,
  });
  const coder = await registry.get('mine');
  return coder.doRun(request(model));
}

describe('a command-template coder on the SDK subprocess base', () => {
  it('runs the program with the prompt as one argument, drops the absent model, and commits once', async () => {
    const result = await runCommandCoder(undefined);
    expect(result.status).toBe('changed');
    expect(result.changedFiles).toEqual(['argv.json']);
    const argv = JSON.parse(readFileSync(join(repository, 'argv.json'), 'utf8')) as string[];
    expect(argv).toEqual(['--prompt', hostilePrompt, '--dir', repository]);
    expect(git('rev-list', '--count', 'HEAD')).toBe('2');
    expect(git('status', '--porcelain')).toBe('');
  }, 30_000);

  it('passes the model when there is one', async () => {
    await runCommandCoder('fast-1');
    const argv = JSON.parse(readFileSync(join(repository, 'argv.json'), 'utf8')) as string[];
    expect(argv).toEqual(['--prompt', hostilePrompt, '--model', 'fast-1', '--dir', repository]);
  }, 30_000);
});
