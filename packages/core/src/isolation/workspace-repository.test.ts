import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace } from './create-task-workspace.js';
import { importTaskBranch } from './import-task-branch.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { removeTaskWorkspace } from './remove-task-workspace.js';

// The repositories users really have: sha256 object names, shallow clones, submodules. Each must give a
// workspace the coder can commit in, whose commit imports back.

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

/** Commit in the workspace, import, and check the user's repository (at `root`) has it on the task branch. */
async function commitAndImport(
  target: TestRepository,
  workspace: { worktreePath: string; branch: string },
  root = target.root,
) {
  const commit = target.commit('coder work', { 'work.txt': 'work\n' }, workspace.worktreePath);
  await importTaskBranch({
    repositoryRoot: root,
    worktreePath: workspace.worktreePath,
    branch: workspace.branch,
    expectedCommit: commit,
  });
  expect(target.revParse(`refs/heads/${workspace.branch}`, root)).toBe(commit);
  expect(target.git(['show', `${commit}:work.txt`], root)).toBe('work');
  return commit;
}

describe('workspace repositories of real-world repositories', { timeout: 30_000 }, () => {
  it('copies an identity with quotes and backslashes, and line-ending settings, but never a filter', async () => {
    const target = repository();
    const name = 'Ada "the Countess" O\'Brien \\ ; # Lovelace';
    target.git(['config', 'user.name', name]);
    target.git(['config', 'core.autocrlf', 'input']);
    target.git(['config', 'filter.secret.clean', 'cat']);
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_identity',
      task: 'identity',
      worktreesDirectory: target.worktreesDirectory,
    });
    const config = path.join(workspace.worktreePath, '.git', 'config');
    expect(target.git(['config', '--file', config, 'user.name'])).toBe(name);
    expect(target.git(['config', '--file', config, 'core.autocrlf'])).toBe('input');
    expect(() => target.git(['config', '--file', config, '--get-regexp', '^filter\\.'])).toThrow();
  });

  it('works for a sha256 repository', async () => {
    const target = repository({ objectFormat: 'sha256' });
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_sha256',
      task: 'sha256',
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(workspace.baseCommit).toMatch(/^[0-9a-f]{64}$/);
    expect(target.git(['rev-parse', '--show-object-format'], workspace.worktreePath)).toBe('sha256');
    expect(target.read('README.md', workspace.worktreePath)).toBe('hello\n');
    const commit = await commitAndImport(target, workspace);
    expect(commit).toMatch(/^[0-9a-f]{64}$/);
  });

  it('works when the repository is a shallow clone', async () => {
    const origin = repository({ name: 'origin' });
    for (let index = 1; index <= 3; index++)
      origin.commit(`history ${index}`, { [`h${index}.txt`]: `${index}\n` });
    const clone = path.join(origin.temporaryDirectory, 'shallow');
    execFileSync('git', ['clone', '--quiet', '--depth=1', `file://${origin.root}`, clone], {
      stdio: 'ignore',
    });
    expect(existsSync(path.join(clone, '.git', 'shallow'))).toBe(true);
    const workspace = await createTaskWorkspace({
      repositoryRoot: clone,
      jobId: 'j_shallow',
      task: 'shallow',
      worktreesDirectory: origin.worktreesDirectory,
    });
    expect(origin.read('h3.txt', workspace.worktreePath)).toBe('3\n');
    expect(origin.git(['rev-list', '--count', 'HEAD'], workspace.worktreePath)).toBe('1');
    expect(origin.git(['status', '--porcelain'], workspace.worktreePath)).toBe('');
    await commitAndImport(origin, workspace, clone);
    expect(origin.git(['rev-list', '--count', `refs/heads/${workspace.branch}`], clone)).toBe('2');
  });

  it('initialises submodules from the URLs the user configured, and undoes everything when that fails', async () => {
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
    expect(target.git(['status', '--porcelain', '--ignore-submodules=none'], workspace.worktreePath)).toBe(
      '',
    );
    // The submodule's repository lives in the workspace, not in the user's `.git/modules`.
    expect(
      existsSync(path.join(workspace.worktreePath, '.git', 'modules', 'vendor', 'library', 'HEAD')),
    ).toBe(true);
    await commitAndImport(target, workspace);
    const removed = await removeTaskWorkspace({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      worktreePath: workspace.worktreePath,
      branch: workspace.branch,
      force: true,
    });
    expect(removed.worktreeRemoved).toBe(true);

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
    expect(error.message).toContain('/nonexistent/repository');
    expect(target.git(['branch', '--list', 'snodo/j_broken*'])).toBe('');
    expect(existsSync(path.join(path.dirname(workspace.worktreePath), 'j_broken'))).toBe(false);
  });

  it('resolves a relative submodule URL against the repository’s remote', async () => {
    const hosting = repository({ name: 'hosting' });
    const upstream = path.join(hosting.temporaryDirectory, 'org', 'app.git');
    const library = path.join(hosting.temporaryDirectory, 'org', 'lib.git');
    execFileSync('git', ['init', '--quiet', '--bare', upstream]);
    execFileSync('git', ['clone', '--quiet', '--bare', hosting.root, library]);
    hosting.write({ '.gitmodules': '[submodule "lib"]\n\tpath = lib\n\turl = ../lib.git\n' });
    const libraryCommit = hosting.git(['rev-parse', 'HEAD']);
    hosting.git(['update-index', '--add', '--cacheinfo', `160000,${libraryCommit},lib`]);
    hosting.git(['add', '.gitmodules']);
    hosting.git(['commit', '--quiet', '-m', 'relative submodule']);
    hosting.git(['remote', 'add', 'origin', upstream]);
    const workspace = await createTaskWorkspace({
      repositoryRoot: hosting.root,
      jobId: 'j_relative',
      task: 'relative url',
      worktreesDirectory: hosting.worktreesDirectory,
    });
    expect(hosting.read('lib/README.md', workspace.worktreePath)).toBe('hello\n');
    // The remote's URL is only read to resolve it: it is not copied into the workspace.
    expect(() => hosting.git(['config', '--get-regexp', '^remote\\.'], workspace.worktreePath)).toThrow();
  });
});
