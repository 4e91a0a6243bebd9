// A git command that hangs (a fetch whose ssh waits for ever, as one stuck on a passphrase or a dead host
// would) must end with a reason, and take what it started with it: git, and the ssh git spawned.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '@snodo/foundation';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GitCommandError } from '../errors/git-command-error.js';
import { GitTimeoutInvalidError } from '../errors/git-timeout-invalid-error.js';
import { isolateGitConfiguration } from '../testing/temporary-repository.js';
import { gitSpawnHost } from './git-spawn-host.js';
import { runGit, runGitSync } from './run-git.js';

let root: string;
let sshCommand: string;
let pidFile: string;

beforeAll(async () => {
  isolateGitConfiguration();
  root = mkdtempSync(path.join(os.tmpdir(), 'snodo-git-timeout-'));
  pidFile = path.join(root, 'ssh.pid');
  sshCommand = path.join(root, 'hanging-ssh');
  // What git runs as ssh: records its pid, then waits far longer than any test (exec keeps the pid).
  writeFileSync(sshCommand, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 300\n`, { mode: 0o755 });
  await runGit(['init', '-q', '-b', 'main', 'repository'], { cwd: root });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.SNODO_GIT_TIMEOUT_SECONDS;
  rmSync(pidFile, { force: true });
});

const fetchThroughHangingSsh = () => [
  '-c',
  `core.sshCommand=${sshCommand}`,
  'fetch',
  'ssh://example.invalid/repository.git',
];

async function expectSshGone(): Promise<void> {
  expect(existsSync(pidFile)).toBe(true);
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  for (let waited = 0; isProcessAlive(pid) && waited < 5000; waited += 50) await sleep(50);
  expect(isProcessAlive(pid)).toBe(false);
}

async function waitForPidFile(): Promise<void> {
  for (let waited = 0; !existsSync(pidFile) && waited < 10_000; waited += 20) await sleep(20);
}

describe("runGit's time limit", () => {
  it('stops a fetch stuck on ssh, and the ssh with it, when git is spawned directly', async () => {
    process.env.SNODO_GIT_SPAWN_HOST = 'off';
    try {
      const started = Date.now();
      const error = await runGit(fetchThroughHangingSsh(), {
        cwd: path.join(root, 'repository'),
        timeoutMs: 1500,
      }).catch((caught: unknown) => caught);
      expect(GitCommandError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ timeoutMs: 1500, exitCode: undefined });
      expect((error as Error).message).toContain('did not finish within 1.5 s and was stopped');
      expect((error as Error).message).toContain('SNODO_GIT_TIMEOUT_SECONDS');
      expect(Date.now() - started).toBeLessThan(20_000);
      await expectSshGone();
    } finally {
      delete process.env.SNODO_GIT_SPAWN_HOST;
    }
  });

  it('stops it too when the spawn host runs git, and takes the limit from SNODO_GIT_TIMEOUT_SECONDS', async () => {
    for (let waited = 0; gitSpawnHost() === undefined; waited += 20) {
      if (waited > 20_000) throw new Error('the git spawn host did not become ready in 20 s');
      await sleep(20);
    }
    process.env.SNODO_GIT_TIMEOUT_SECONDS = '1.5';
    const error = await runGit(fetchThroughHangingSsh(), { cwd: path.join(root, 'repository') }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'GIT_COMMAND_FAILED', timeoutMs: 1500 });
    await expectSshGone();
    // The host lives on: the next command works.
    await expect(
      runGit(['status', '--porcelain'], { cwd: path.join(root, 'repository') }),
    ).resolves.toMatchObject({
      exitCode: 0,
    });
  });

  it('stops the blocking runner the same way', async () => {
    const pending = waitForPidFile();
    let error: unknown;
    try {
      runGitSync(fetchThroughHangingSsh(), { cwd: path.join(root, 'repository'), timeoutMs: 1500 });
    } catch (caught) {
      error = caught;
    }
    await pending;
    expect(error).toMatchObject({ code: 'GIT_COMMAND_FAILED', timeoutMs: 1500 });
    await expectSshGone();
  });

  it('refuses a SNODO_GIT_TIMEOUT_SECONDS that is not seconds above zero, before git starts', async () => {
    for (const value of ['soon', '0', '-5', ' ']) {
      process.env.SNODO_GIT_TIMEOUT_SECONDS = value;
      const error = await runGit(['status'], { cwd: path.join(root, 'repository') }).catch(
        (caught: unknown) => caught,
      );
      expect(GitTimeoutInvalidError.isInstance(error), value).toBe(true);
      expect((error as Error).message).toContain('SNODO_GIT_TIMEOUT_SECONDS');
      expect(() => runGitSync(['status'], { cwd: path.join(root, 'repository') })).toThrow(
        /not a number of seconds above zero/,
      );
    }
  });
});
