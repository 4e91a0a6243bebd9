import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BaseBranchNotFoundError, BaseBranchRequiredError } from '../errors.js';
import {
  createTestRepository,
  type TestRepository,
  testIdentity,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace } from './create-task-workspace.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { useCurrentCheckout } from './use-current-checkout.js';
import { WorktreeDirtyError } from './worktree-dirty-error.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
const repository = (options?: Parameters<typeof createTestRepository>[0]): TestRepository => {
  const created = createTestRepository(options);
  repositories.push(created);
  return created;
};
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

describe('createTaskWorkspace', { timeout: 30_000 }, () => {
  it('creates a workspace repository on snodo/<job>-<slug> off the checked-out branch "trunk"', async () => {
    const target = repository({ branch: 'trunk' });
    const baseCommit = target.revParse('trunk');
    const canary = path.join(target.temporaryDirectory, 'post-checkout-ran');
    writeFileSync(
      path.join(target.root, '.git', 'hooks', 'post-checkout'),
      `#!/bin/sh\ntouch '${canary}'\n`,
      {
        mode: 0o755,
      },
    );
    // A template directory of the user's would put its hooks into every new repository.
    const template = path.join(target.temporaryDirectory, 'template');
    mkdirSync(path.join(template, 'hooks'), { recursive: true });
    writeFileSync(path.join(template, 'hooks', 'pre-commit'), `#!/bin/sh\ntouch '${canary}'\n`, {
      mode: 0o755,
    });
    target.git(['config', '--global', 'init.templateDir', template]);
    target.write({ '.git/info/exclude': 'secret-notes.txt\n' });
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_k3x9',
      task: 'Add rate limiting to the login route',
      worktreesDirectory: target.worktreesDirectory,
    });
    target.git(['config', '--global', '--unset', 'init.templateDir']);
    expect(workspace).toMatchObject({
      branch: 'snodo/j_k3x9-add-rate-limiting-to-the-login-route',
      baseBranch: 'trunk',
      baseRef: 'refs/heads/trunk',
      baseCommit,
      baseSource: 'checkout',
      layout: 'repository',
      isolated: true,
    });
    const ws = workspace.worktreePath;
    expect(path.dirname(path.dirname(ws))).toBe(target.worktreesDirectory);
    expect(path.basename(ws)).toBe('j_k3x9');
    expect(path.basename(path.dirname(ws))).toMatch(/^project-[0-9a-f]{10}$/);
    expect(target.read('README.md', ws)).toBe('hello\n');
    expect(target.git(['symbolic-ref', 'HEAD'], ws)).toBe(`refs/heads/${workspace.branch}`);
    expect(target.revParse('HEAD', ws)).toBe(baseCommit);
    expect(target.git(['status', '--porcelain'], ws)).toBe('');
    // Its own repository: refs, config, hooks and info are not the user's; objects come through the alternate.
    expect(target.git(['rev-parse', '--path-format=absolute', '--git-common-dir'], ws)).toBe(
      path.join(ws, '.git'),
    );
    expect(target.read('.git/objects/info/alternates', ws)).toBe(
      `${path.join(target.root, '.git', 'objects')}\n`,
    );
    expect(readdirSync(path.join(ws, '.git', 'objects')).sort()).toEqual(['info', 'pack']);
    expect(readdirSync(path.join(ws, '.git', 'hooks'))).toEqual([]);
    expect(target.git(['branch', '--format=%(refname:short)'], ws)).toBe(workspace.branch);
    expect(target.git(['config', 'user.name'], ws)).toBe(testIdentity.name);
    expect(target.git(['config', '--file', path.join(ws, '.git', 'config'), 'user.email'])).toBe(
      testIdentity.email,
    );
    expect(target.read('.git/info/exclude', ws)).toContain('secret-notes.txt');
    target.write({ 'secret-notes.txt': 'mine\n' }, ws);
    expect(target.git(['status', '--porcelain'], ws)).toBe('');
    expect(JSON.parse(target.read('.git/snodo-workspace.json', ws))).toMatchObject({
      kind: 'task-workspace',
      jobId: 'j_k3x9',
      branch: workspace.branch,
      baseRef: 'refs/heads/trunk',
      baseCommit,
      gitCommonDirectory: path.join(target.root, '.git'),
      pid: process.pid,
    });
    // The user sees the task branch in their repository, and nothing else changed there.
    expect(target.revParse(`refs/heads/${workspace.branch}`)).toBe(baseCommit);
    expect(target.git(['worktree', 'list', '--porcelain']).split('\n\n')).toHaveLength(1);
    expect(existsSync(canary)).toBe(false);
    expect(target.git(['symbolic-ref', 'HEAD'])).toBe('refs/heads/trunk');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('starts from a "develop" checkout and keeps the base out of the workspace repository', async () => {
    const target = repository({ branch: 'develop' });
    const developTip = target.commit('on develop', { 'develop.txt': 'd\n' });
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_dev',
      task: 'on develop',
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(workspace).toMatchObject({
      baseBranch: 'develop',
      baseRef: 'refs/heads/develop',
      baseCommit: developTip,
    });
    expect(target.read('develop.txt', workspace.worktreePath)).toBe('d\n');
    // Only the task branch is a ref there: a coder's `git update-ref refs/heads/develop` changes nothing of yours.
    expect(target.git(['for-each-ref', '--format=%(refname)'], workspace.worktreePath)).toBe(
      `refs/heads/${workspace.branch}`,
    );
    target.git(['update-ref', 'refs/heads/develop', developTip], workspace.worktreePath);
    target.commit('coder commit', { 'x.txt': 'x\n' }, workspace.worktreePath);
    target.git(['update-ref', 'refs/heads/develop', 'HEAD'], workspace.worktreePath);
    expect(target.revParse('develop')).toBe(developTip);
    expect(target.revParse(`refs/heads/${workspace.branch}`)).toBe(developTip);
  });

  it('asks for --base on a detached HEAD, and works once one is given', async () => {
    const target = repository();
    target.git(['checkout', '--quiet', '--detach']);
    const error = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_detached',
      task: 'anything',
      worktreesDirectory: target.worktreesDirectory,
    }).catch((caught) => caught);
    expect(BaseBranchRequiredError.isInstance(error)).toBe(true);
    expect(error.code).toBe('BASE_BRANCH_REQUIRED');
    expect(error.message).toContain('--base <branch>');
    expect(existsSync(target.worktreesDirectory)).toBe(false);

    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_detached',
      task: 'anything',
      base: 'trunk',
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(workspace.baseSource).toBe('flag');
    expect(workspace.baseCommit).toBe(target.revParse('trunk'));
  });

  it('prefers --base over execution.base_branch over the checkout, and rejects a base that does not exist', async () => {
    const target = repository();
    const releaseCommit = target.commit('on trunk', { 'a.txt': 'a\n' });
    target.git(['branch', 'release', releaseCommit]);
    const trunkTip = target.commit('later on trunk', { 'b.txt': 'b\n' });
    target.git(['branch', 'develop', 'trunk~2']);
    const fromProtocol = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_one',
      task: 'one',
      configuredBase: 'release',
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(fromProtocol).toMatchObject({
      baseBranch: 'release',
      baseCommit: releaseCommit,
      baseSource: 'protocol',
    });
    const fromFlag = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_two',
      task: 'two',
      base: 'develop',
      configuredBase: 'release',
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(fromFlag).toMatchObject({ baseBranch: 'develop', baseSource: 'flag' });
    expect(trunkTip).not.toBe(fromFlag.baseCommit);

    const missing = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_three',
      task: 'three',
      base: 'mian',
      worktreesDirectory: target.worktreesDirectory,
    }).catch((caught) => caught);
    expect(BaseBranchNotFoundError.isInstance(missing)).toBe(true);
    expect(missing.message).toContain('"mian"');
    expect(target.git(['branch', '--list', 'snodo/j_three*'])).toBe('');
  });

  it('turns hostile task text into a valid branch with no side effects', async () => {
    const target = repository();
    const canary = path.join(target.temporaryDirectory, 'pwn');
    const task = `$(touch ${canary}); \`touch ${canary}\` rm -rf ~ --dangerously-skip-permissions -c core.hooksPath=/tmp/x\nFake-Trailer: x \u202Eévil 🚀`;
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_hostile',
      task,
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(workspace.branch).toMatch(/^snodo\/j_hostile-[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(workspace.branch.length).toBeLessThanOrEqual('snodo/j_hostile-'.length + 40);
    target.git(['check-ref-format', '--branch', workspace.branch]);
    expect(existsSync(canary)).toBe(false);
    expect(readdirSync(target.temporaryDirectory).sort()).toEqual(['project', 'worktrees']);
  });

  it('creates 8 workspaces of one repository at once (regression: a concurrent prune ate a half-made worktree)', async () => {
    const target = repository();
    const created = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((index) =>
        createTaskWorkspace({
          repositoryRoot: target.root,
          jobId: `j_parallel${index}`,
          task: `parallel ${index}`,
          worktreesDirectory: target.worktreesDirectory,
        }),
      ),
    );
    for (const workspace of created) {
      expect(target.read('README.md', workspace.worktreePath)).toBe('hello\n');
      expect(target.git(['status', '--porcelain'], workspace.worktreePath)).toBe('');
    }
    expect(new Set(created.map((workspace) => workspace.worktreePath)).size).toBe(8);
    expect(target.git(['branch', '--list', 'snodo/*', '--format=%(refname:short)']).split('\n')).toHaveLength(
      8,
    );
  });

  it('keeps two repositories with the same folder name apart', async () => {
    const first = repository({ name: 'app' });
    const second = repository({ name: 'app' });
    const shared = first.worktreesDirectory;
    const one = await createTaskWorkspace({
      repositoryRoot: first.root,
      jobId: 'j_same',
      task: 't',
      worktreesDirectory: shared,
    });
    const two = await createTaskWorkspace({
      repositoryRoot: second.root,
      jobId: 'j_same',
      task: 't',
      worktreesDirectory: shared,
    });
    expect(one.worktreePath).not.toBe(two.worktreePath);
    expect(path.basename(path.dirname(one.worktreePath))).toMatch(/^app-/);
    expect(first.read('.git/objects/info/alternates', one.worktreePath)).toContain(first.root);
    expect(second.read('.git/objects/info/alternates', two.worktreePath)).toContain(second.root);
  });

  it('fails with ISOLATION_FAILED (never a silent fallback) and leaves no branch behind', async () => {
    const target = repository();
    const first = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_dup',
      task: 'first',
      worktreesDirectory: target.worktreesDirectory,
    });
    const again = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_dup',
      task: 'second',
      worktreesDirectory: target.worktreesDirectory,
    }).catch((caught) => caught);
    expect(IsolationFailedError.isInstance(again)).toBe(true);
    expect(again.code).toBe('ISOLATION_FAILED');
    expect(again.message).toContain(first.worktreePath);
    expect(target.git(['branch', '--list', 'snodo/j_dup-second'])).toBe('');
    expect(target.revParse(`refs/heads/${first.branch}`)).toBe(first.baseCommit);

    // A failure after the task branch was made (here: its directory cannot be created) removes the branch.
    const blocked = path.join(target.temporaryDirectory, 'blocked');
    writeFileSync(blocked, 'not a directory\n');
    const halfway = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_halfway',
      task: 'halfway',
      worktreesDirectory: path.join(blocked, 'worktrees'),
    }).catch((caught) => caught);
    expect(IsolationFailedError.isInstance(halfway)).toBe(true);
    expect(target.git(['branch', '--list', 'snodo/j_halfway*'])).toBe('');

    const inside = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_inside',
      task: 'inside',
      worktreesDirectory: path.join(target.root, '.snodo', 'worktrees'),
    }).catch((caught) => caught);
    expect(IsolationFailedError.isInstance(inside)).toBe(true);
    expect(inside.message).toContain('inside the repository');
    expect(existsSync(path.join(target.root, '.snodo'))).toBe(false);
  });
});

describe('useCurrentCheckout (--no-isolation)', () => {
  it('runs on the current branch when the checkout is clean', async () => {
    const target = repository({ branch: 'trunk' });
    expect(await useCurrentCheckout({ repositoryRoot: target.root })).toEqual({
      worktreePath: target.root,
      branch: 'trunk',
      baseBranch: 'trunk',
      baseRef: 'refs/heads/trunk',
      baseCommit: target.revParse('HEAD'),
      baseSource: 'checkout',
      isolated: false,
    });
  });

  it('refuses a dirty checkout, listing the changed paths and what to do', async () => {
    const target = repository();
    target.write({ 'README.md': 'edited\n', 'notes/todo.txt': 'untracked\n' });
    const error = await useCurrentCheckout({ repositoryRoot: target.root }).catch((caught) => caught);
    expect(WorktreeDirtyError.isInstance(error)).toBe(true);
    expect(error.code).toBe('WORKTREE_DIRTY');
    expect(error.changedPaths).toEqual(['README.md', 'notes/todo.txt']);
    expect(error.message).toContain('--no-isolation');
    expect(target.read('README.md')).toBe('edited\n');
  });

  it('refuses a detached HEAD', async () => {
    const target = repository();
    mkdirSync(path.join(target.root, 'sub'));
    target.git(['checkout', '--quiet', '--detach']);
    const error = await useCurrentCheckout({ repositoryRoot: path.join(target.root, 'sub') }).catch(
      (caught) => caught,
    );
    expect(error.code).toBe('BASE_BRANCH_REQUIRED');
    expect(error.message).toContain('git switch');
  });
});
