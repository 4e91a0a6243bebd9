import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { BaseBranchNotFoundError } from './base-branch-not-found-error.js';
import { BaseBranchRequiredError } from './base-branch-required-error.js';
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
  it('creates a locked worktree on snodo/<job>-<slug> off the checked-out branch "trunk"', async () => {
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
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_k3x9',
      task: 'Add rate limiting to the login route',
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(workspace).toMatchObject({
      branch: 'snodo/j_k3x9-add-rate-limiting-to-the-login-route',
      baseBranch: 'trunk',
      baseRef: 'refs/heads/trunk',
      baseCommit,
      baseSource: 'checkout',
      isolated: true,
    });
    expect(path.dirname(path.dirname(workspace.worktreePath))).toBe(target.worktreesDirectory);
    expect(path.basename(workspace.worktreePath)).toBe('j_k3x9');
    expect(path.basename(path.dirname(workspace.worktreePath))).toMatch(/^project-[0-9a-f]{10}$/);
    expect(target.read('README.md', workspace.worktreePath)).toBe('hello\n');
    expect(target.git(['symbolic-ref', 'HEAD'], workspace.worktreePath)).toBe(
      `refs/heads/${workspace.branch}`,
    );
    const listing = target.git(['worktree', 'list', '--porcelain']);
    expect(listing).toContain(
      `worktree ${workspace.worktreePath}\nHEAD ${baseCommit}\nbranch refs/heads/${workspace.branch}\nlocked snodo job j_k3x9 pid ${process.pid}`,
    );
    expect(existsSync(canary)).toBe(false);
    // The user's checkout is untouched: still on trunk, nothing new in git status.
    expect(target.git(['symbolic-ref', 'HEAD'])).toBe('refs/heads/trunk');
    expect(target.git(['status', '--porcelain'])).toBe('');
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

  it('creates many workspaces of one repository at once (regression: a concurrent prune ate a half-made worktree)', async () => {
    const target = repository();
    const created = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((index) =>
        createTaskWorkspace({
          repositoryRoot: target.root,
          jobId: `j_parallel${index}`,
          task: `parallel ${index}`,
          worktreesDirectory: target.worktreesDirectory,
        }),
      ),
    );
    for (const workspace of created) expect(target.read('README.md', workspace.worktreePath)).toBe('hello\n');
    expect(target.git(['worktree', 'list']).split('\n')).toHaveLength(7);
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
    second.git(['worktree', 'remove', '--force', '--force', two.worktreePath]);
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

  it('undoes the worktree when submodule initialisation fails, and initialises working submodules', async () => {
    const library = repository({ name: 'library' });
    const target = repository();
    target.git([
      '-c',
      'protocol.file.allow=always',
      'submodule',
      'add',
      '--quiet',
      library.root,
      'vendor/library',
    ]);
    target.git(['commit', '--quiet', '-m', 'add submodule']);
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_sub',
      task: 'with submodule',
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(target.read('vendor/library/README.md', workspace.worktreePath)).toBe('hello\n');

    writeFileSync(
      path.join(target.root, '.gitmodules'),
      '[submodule "vendor/library"]\n\tpath = vendor/library\n\turl = /nonexistent/repository\n',
    );
    target.git(['commit', '--quiet', '-am', 'break the submodule url']);
    target.git(['config', '--remove-section', 'submodule.vendor/library']);
    const error = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_broken',
      task: 'broken submodule',
      worktreesDirectory: target.worktreesDirectory,
    }).catch((caught) => caught);
    expect(IsolationFailedError.isInstance(error)).toBe(true);
    expect(error.message).toContain('submodule');
    expect(target.git(['branch', '--list', 'snodo/j_broken*'])).toBe('');
    expect(target.git(['worktree', 'list'])).not.toContain('j_broken');
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
