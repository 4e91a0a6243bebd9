import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isolateGitConfiguration } from '../testing/temporary-repository.js';
import { runGit } from './run-git.js';
import { simpleGitClient } from './simple-git-client.js';

let root: string;

beforeAll(() => isolateGitConfiguration());
beforeEach(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'snodo-simple-git-'));
  await runGit(['init', '-q', '-b', 'main'], { cwd: root });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('simpleGitClient', () => {
  it('follows the runner’s rules: planted hooks and fsmonitor never run, an inherited GIT_DIR is ignored', async () => {
    const canary = path.join(root, '..', `${path.basename(root)}-hostile-ran`);
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit']) {
      writeFileSync(path.join(root, '.git', 'hooks', hook), `#!/bin/sh\ntouch ${canary}\n`, { mode: 0o755 });
    }
    await runGit(['config', 'core.fsmonitor', `sh -c 'touch ${canary}'`], { cwd: root });
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    const saved = { ...process.env };
    process.env.GIT_DIR = path.join(os.tmpdir(), 'not-a-repository');
    process.env.GIT_AUTHOR_NAME = 'Client';
    process.env.GIT_AUTHOR_EMAIL = 'client@example.com';
    process.env.GIT_COMMITTER_NAME = 'Client';
    process.env.GIT_COMMITTER_EMAIL = 'client@example.com';
    try {
      const client = await simpleGitClient({ cwd: root });
      expect((await client.raw(['rev-parse', '--absolute-git-dir'])).trim()).toBe(
        path.join(realpathSync(root), '.git'),
      );
      await client.add(['a.txt']);
      await client.status();
      await client.commit('through simple-git');
    } finally {
      process.env = saved;
    }
    expect(existsSync(canary)).toBe(false);
    const { stdout } = await runGit(['log', '-1', '--format=%s / %an'], { cwd: root });
    // NOTE: simple-git 4 alone would drop the GIT_AUTHOR_* variables (and GIT_CONFIG_GLOBAL); the
    // client keeps what gitEnvironment() keeps.
    expect(stdout.trim()).toBe('through simple-git / Client');
  });

  it('reads the user’s global config the way runGit does (GIT_CONFIG_GLOBAL kept)', async () => {
    const global = path.join(root, '..', `${path.basename(root)}-gitconfig`);
    writeFileSync(global, '[user]\n\tname = From Global\n');
    const previous = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = global;
    try {
      const client = await simpleGitClient({ cwd: root });
      expect((await client.raw(['config', 'user.name'])).trim()).toBe('From Global');
    } finally {
      process.env.GIT_CONFIG_GLOBAL = previous;
      rmSync(global, { force: true });
    }
  });
});
