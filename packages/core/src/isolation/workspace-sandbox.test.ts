import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CoderV1SandboxMount } from '@snodo/coder-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceLayoutUnsupportedError } from '../errors.js';
import {
  createTestRepository,
  type TestRepository,
  testIdentity,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace, type TaskWorkspace } from './create-task-workspace.js';
import { importTaskBranch } from './import-task-branch.js';
import { workspaceSandboxMounts } from './workspace-sandbox-mounts.js';

// A coder's git inside a real bubblewrap sandbox built from workspaceSandboxMounts: its own work goes
// through, and every write into the user's repository (or into the parts of the workspace that steer
// snodo's own git) fails. The bwrap argv is written by hand here, as the SDK's wrapper will write it.

const bwrapWorks =
  spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', '--cap-drop', 'ALL', '--', 'true'], {
    stdio: 'ignore',
  }).status === 0;

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

/** A repository whose trunk has two commits, and a workspace off its tip. */
async function setUp(): Promise<{ target: TestRepository; workspace: TaskWorkspace; home: string }> {
  const target = createTestRepository({ branch: 'trunk' });
  repositories.push(target);
  target.commit('second', { 'src/app.ts': 'export const app = 1;\n' });
  const workspace = await createTaskWorkspace({
    repositoryRoot: target.root,
    jobId: 'j_sandboxed',
    task: 'sandboxed work',
    worktreesDirectory: target.worktreesDirectory,
  });
  const home = path.join(target.temporaryDirectory, 'private-home');
  mkdirSync(home);
  return { target, workspace, home };
}

/** bwrap over a read-only root, mounts parents first, no capabilities, its own PID namespace. */
function runSandboxed(
  mounts: readonly CoderV1SandboxMount[],
  options: { cwd: string; home: string; script: string; args: readonly string[] },
): { status: number | null; stdout: string; stderr: string } {
  const depth = (mount: CoderV1SandboxMount): number => mount.path.split('/').length;
  const ordered = mounts
    .map((mount, index) => ({ mount, index }))
    .sort((left, right) => depth(left.mount) - depth(right.mount) || left.index - right.index);
  const argv = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', options.home];
  for (const { mount } of ordered) {
    const flag = mount.type === 'hide' ? '--tmpfs' : mount.type === 'read-only' ? '--ro-bind' : '--bind';
    argv.push(
      ...(mount.type === 'hide' ? [flag, mount.path] : [flag, mount.source ?? mount.path, mount.path]),
    );
  }
  argv.push('--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL', '--chdir', options.cwd);
  argv.push('--', 'sh', '-c', options.script, 'sandboxed', ...options.args);
  const result = spawnSync('bwrap', argv, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // A private HOME: no global git config, so the identity must come from the workspace's own config.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: options.home,
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(!bwrapWorks)(
  'the workspace in a bubblewrap sandbox (skipped: bwrap is not available here)',
  {
    timeout: 30_000,
  },
  () => {
    it("lets the coder's own git status, add and commit, and the commit imports back", async () => {
      const { target, workspace, home } = await setUp();
      const ws = workspace.worktreePath;
      const result = runSandboxed(workspaceSandboxMounts(ws), {
        cwd: ws,
        home,
        args: [],
        script: [
          'set -e',
          'git status --porcelain',
          'echo "export const rateLimit = 5;" > src/limit.ts',
          'git add -A',
          'git commit --quiet -m "add a rate limit"',
          'git log -1 --format=%an',
        ].join('\n'),
      });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout.trim()).toBe(testIdentity.name);
      const commit = target.revParse(`refs/heads/${workspace.branch}`, ws);
      expect(target.git(['log', '-1', '--format=%s', commit], ws)).toBe('add a rate limit');
      await importTaskBranch({
        repositoryRoot: target.root,
        worktreePath: ws,
        branch: workspace.branch,
        expectedCommit: commit,
      });
      target.git(['cat-file', '-e', `${commit}^{commit}`]);
      expect(target.git(['show', `${workspace.branch}:src/limit.ts`])).toBe('export const rateLimit = 5;');
    });

    it("refuses a hostile coder every write into the user's repository and into what steers snodo's git", async () => {
      const { target, workspace, home } = await setUp();
      const ws = workspace.worktreePath;
      const trunk = target.revParse('trunk');
      const configBefore = target.read('.git/config');
      const main = target.root;
      const attempts: Record<string, string> = {
        'move the base branch': `git -C "$1" update-ref refs/heads/trunk "$2"`,
        'write an object into the repository': `echo backdoor | git -C "$1" hash-object -w --stdin`,
        'plant a hook in the repository': `echo "#!/bin/sh" > "$1/.git/hooks/post-commit"`,
        'change the repository config': `git -C "$1" config core.hooksPath /tmp/hooks`,
        'hide files with info/exclude': `echo "*.env" >> "$1/.git/info/exclude"`,
        'edit the main checkout': `echo pwned > "$1/README.md"`,
        'change the workspace config': 'git config core.fsmonitor "touch /tmp/pwned"',
        'plant a hook in the workspace': 'echo "#!/bin/sh" > .git/hooks/post-checkout',
        'point the workspace alternates elsewhere': 'echo /tmp > .git/objects/info/alternates',
        'rewrite the workspace marker': 'echo "{}" > .git/snodo-workspace.json',
        'swap the workspace .git for another': 'mv .git .git-aside',
      };
      const script = Object.entries(attempts)
        .map(
          ([name, command]) =>
            `if out=$( { ${command}; } 2>&1 ); then echo "${name}: SUCCEEDED"; else echo "${name}:" $out; fi`,
        )
        .join('\n');
      const result = runSandboxed(workspaceSandboxMounts(ws), {
        cwd: ws,
        home,
        script,
        args: [main, `${trunk}~1`],
      });
      expect(result.status).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines).toHaveLength(Object.keys(attempts).length);
      // In the user's repository every write hits the read-only filesystem. In the workspace, git's
      // write-a-lock-then-rename meets a mount point instead (EBUSY): a mount point cannot be replaced.
      for (const line of lines) {
        if (line.includes('workspace')) expect(line).toMatch(/Read-only file system|Device or resource busy/);
        else expect(line).toMatch(/Read-only file system/);
      }
      expect(target.revParse('trunk')).toBe(trunk);
      expect(target.read('README.md')).toBe('hello\n');
      expect(target.read('.git/config')).toBe(configBefore);
      expect(target.git(['status', '--porcelain'])).toBe('');
      expect(target.read('.git/objects/info/alternates', ws)).toBe(`${path.join(main, '.git', 'objects')}\n`);
    });
  },
);

describe('workspaceSandboxMounts', { timeout: 30_000 }, () => {
  it('makes the workspace writable, what steers git read-only, and puts back every borrowed object store', async () => {
    const origin = createTestRepository({ name: 'origin' });
    repositories.push(origin);
    // A clone that borrows its objects from another repository (`--shared`): the sandbox needs both stores.
    const shared = path.join(origin.temporaryDirectory, 'shared');
    execFileSync('git', ['clone', '--quiet', '--shared', origin.root, shared], { stdio: 'ignore' });
    const workspace = await createTaskWorkspace({
      repositoryRoot: shared,
      jobId: 'j_mounts',
      task: 'mounts',
      worktreesDirectory: origin.worktreesDirectory,
    });
    const ws = workspace.worktreePath;
    const git = path.join(ws, '.git');
    expect(workspaceSandboxMounts(ws)).toEqual([
      { type: 'read-write', path: ws },
      { type: 'read-write', path: git },
      { type: 'read-only', path: path.join(git, 'config') },
      { type: 'read-only', path: path.join(git, 'hooks') },
      { type: 'read-only', path: path.join(git, 'info') },
      { type: 'read-only', path: path.join(git, 'objects', 'info') },
      { type: 'read-only', path: path.join(git, 'snodo-workspace.json') },
      { type: 'read-only', path: path.join(shared, '.git', 'objects') },
      { type: 'read-only', path: path.join(origin.root, '.git', 'objects') },
    ]);
  });

  it('refuses a linked worktree of an earlier snodo and a directory snodo did not create', async () => {
    const target = createTestRepository();
    repositories.push(target);
    const legacy = path.join(target.worktreesDirectory, 'project', 'j_old');
    target.git(['worktree', 'add', '--quiet', '-b', 'snodo/j_old-x', legacy]);
    const error = (() => {
      try {
        return workspaceSandboxMounts(legacy);
      } catch (caught) {
        return caught as WorkspaceLayoutUnsupportedError;
      }
    })() as WorkspaceLayoutUnsupportedError;
    expect(WorkspaceLayoutUnsupportedError.isInstance(error)).toBe(true);
    expect(error.message).toContain('linked worktree');
    expect(error.message).toContain('snodo task abandon');
    expect(() => workspaceSandboxMounts(target.root)).toThrow(/not a workspace snodo created/);
  });
});
