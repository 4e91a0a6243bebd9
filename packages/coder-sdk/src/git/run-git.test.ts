import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GitCommandError } from '../errors/git-command-error.js';
import { isolateGitConfiguration } from '../testing/temporary-repository.js';
import { runGit } from './run-git.js';

let root: string;

beforeAll(() => isolateGitConfiguration());
beforeEach(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'snodo-run-git-'));
  await runGit(['init', '-q', '-b', 'main'], { cwd: root });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const identity = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

describe('runGit', () => {
  it('commits with a message from stdin and never runs hooks', async () => {
    const canary = path.join(root, '..', `${path.basename(root)}-hook-ran`);
    writeFileSync(path.join(root, '.git', 'hooks', 'post-commit'), `#!/bin/sh\ntouch ${canary}\n`, {
      mode: 0o755,
    });
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    await runGit(['add', '-A'], { cwd: root });

    await runGit(['commit', '-q', '-F', '-'], {
      cwd: root,
      input: 'subject; $(touch /tmp/x)\n\nbody\n',
      env: identity,
    });

    const { stdout } = await runGit(['log', '-1', '--format=%B'], { cwd: root });
    expect(stdout).toBe('subject; $(touch /tmp/x)\n\nbody\n\n');
    expect(existsSync(canary)).toBe(false);
  });

  it('throws GitCommandError with git’s stderr, unless the exit code is allowed', async () => {
    const error = await runGit(['rev-parse', '--verify', 'no-such-ref'], { cwd: root }).catch(
      (caught: unknown) => caught,
    );
    expect(GitCommandError.isInstance(error)).toBe(true);
    expect((error as GitCommandError).exitCode).toBe(128);
    expect((error as GitCommandError).stderr).toContain('fatal');
    expect((error as GitCommandError).args).toEqual(['rev-parse', '--verify', 'no-such-ref']);

    const unset = await runGit(['config', '--get', 'user.nickname'], { cwd: root, allowedExitCodes: [1] });
    expect(unset.exitCode).toBe(1);
  });

  it('ignores GIT_DIR inherited from the parent environment', async () => {
    const previous = process.env.GIT_DIR;
    process.env.GIT_DIR = path.join(os.tmpdir(), 'not-a-repository');
    try {
      const { stdout } = await runGit(['rev-parse', '--absolute-git-dir'], { cwd: root });
      expect(stdout.trim()).toBe(path.join(realpathSync(root), '.git'));
    } finally {
      if (previous === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = previous;
    }
  });
});
