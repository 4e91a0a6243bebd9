import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GitCommandError } from '../errors/git-command-error.js';
import { isolateGitConfiguration } from '../testing/temporary-repository.js';
import { runGit, runGitSync } from './run-git.js';

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

  it('runs nothing a hostile repository or environment configures: fsmonitor, pager, hooks, external diff', async () => {
    const canary = path.join(root, '..', `${path.basename(root)}-hostile-ran`);
    const hostile = `sh -c 'touch ${canary}'`;
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    await runGit(['add', '-A'], { cwd: root });
    await runGit(['commit', '-q', '-m', 'a'], { cwd: root, env: identity });
    for (const [key, value] of [
      ['core.fsmonitor', hostile],
      ['core.pager', hostile],
      ['pager.diff', hostile],
    ]) {
      await runGit(['config', key as string, value as string], { cwd: root });
    }
    writeFileSync(path.join(root, 'a.txt'), 'changed\n');
    const saved = { ...process.env };
    // As if snodo were started from a hook whose caller injected configuration.
    process.env.GIT_CONFIG_COUNT = '1';
    process.env.GIT_CONFIG_KEY_0 = 'core.hooksPath';
    process.env.GIT_CONFIG_VALUE_0 = path.join(root, '.git', 'hooks');
    process.env.GIT_EXTERNAL_DIFF = hostile;
    try {
      writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hostile}\n`, {
        mode: 0o755,
      });
      await runGit(['status', '--porcelain'], { cwd: root });
      const diff = await runGit(['diff'], { cwd: root });
      runGitSync(['diff'], { cwd: root });
      await runGit(['commit', '-q', '-a', '-m', 'b'], { cwd: root, env: identity });
      expect(diff.stdout).toContain('+changed');
      expect(existsSync(canary)).toBe(false);
    } finally {
      process.env = saved;
    }
  });

  it('treats a path as a literal, never as a glob or pathspec magic', async () => {
    writeFileSync(path.join(root, 'a.ts'), 'a\n');
    writeFileSync(path.join(root, 'b.ts'), 'b\n');
    await runGit(['add', '--', '*.ts'], { cwd: root, allowedExitCodes: 'any' });
    const { stdout } = await runGit(['diff', '--cached', '--name-only'], { cwd: root });
    expect(stdout).toBe('');
  });

  it('answers with the exit code when asked to, for every code or the listed ones', async () => {
    await runGit(['commit', '-q', '--allow-empty', '-m', 'first'], { cwd: root, env: identity });
    const head = (await runGit(['rev-parse', 'HEAD'], { cwd: root })).stdout.trim();
    const notAncestor = await runGit(['merge-base', '--is-ancestor', head, `${head}^{tree}`], {
      cwd: root,
      allowedExitCodes: 'any',
    });
    expect(notAncestor.exitCode).toBe(128);
    expect(notAncestor.stderr).not.toBe('');
    await expect(
      runGit(['config', '--get', 'user.nickname'], { cwd: root, allowedExitCodes: [2] }),
    ).rejects.toSatisfy((error: unknown) => GitCommandError.isInstance(error) && error.exitCode === 1);
  });

  it('says git could not start when the directory does not exist', async () => {
    const missing = path.join(root, 'no-such-directory');
    const error = await runGit(['status'], { cwd: missing }).catch((caught: unknown) => caught);
    expect(GitCommandError.isInstance(error)).toBe(true);
    expect((error as GitCommandError).exitCode).toBeUndefined();
    expect((error as GitCommandError).message).toContain('could not start');
  });
});

describe('runGitSync', () => {
  it('follows the same rules: stdin input, GIT_DIR ignored, GitCommandError on failure', () => {
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    const blob = runGitSync(['hash-object', '-w', '--stdin'], {
      cwd: root,
      input: 'from stdin\n',
    }).stdout.trim();
    const previous = process.env.GIT_DIR;
    process.env.GIT_DIR = path.join(os.tmpdir(), 'not-a-repository');
    try {
      expect(runGitSync(['cat-file', 'blob', blob], { cwd: root }).stdout).toBe('from stdin\n');
    } finally {
      if (previous === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = previous;
    }
    let error: unknown;
    try {
      runGitSync(['cat-file', 'blob', 'no-such-object'], { cwd: root });
    } catch (caught) {
      error = caught;
    }
    expect(GitCommandError.isInstance(error)).toBe(true);
    expect((error as GitCommandError).exitCode).toBe(128);
    expect(
      runGitSync(['cat-file', '-e', 'no-such-object'], { cwd: root, allowedExitCodes: 'any' }).exitCode,
    ).toBe(128);
  });
});
