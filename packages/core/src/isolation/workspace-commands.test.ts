import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace } from './create-task-workspace.js';
import { shellWord, workspaceUpdateCommand } from './workspace-commands.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

describe('workspaceUpdateCommand', { timeout: 30_000 }, () => {
  it('prints a command that, typed as shown, merges the base’s current tip into a workspace repository', async () => {
    const target = createTestRepository({ name: 'my project' });
    repositories.push(target);
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_conflict',
      task: 'conflict',
      worktreesDirectory: target.worktreesDirectory,
    });
    target.commit('coder', { 'coder.txt': 'coder\n' }, workspace.worktreePath);
    const moved = target.commit('the base moved on', { 'base.txt': 'base\n' });
    const command = workspaceUpdateCommand({
      repositoryRoot: target.root,
      worktreePath: workspace.worktreePath,
      baseBranch: 'trunk',
      layout: 'repository',
      action: 'merge',
    });
    expect(command).toBe(
      `git -C ${workspace.worktreePath} fetch '${target.root}' refs/heads/trunk && git -C ${workspace.worktreePath} merge FETCH_HEAD`,
    );
    execFileSync('sh', ['-c', `${command} --quiet --no-edit`], { stdio: 'ignore' });
    expect(target.git(['merge-base', '--is-ancestor', moved, 'HEAD'], workspace.worktreePath)).toBe('');
    expect(target.read('base.txt', workspace.worktreePath)).toBe('base\n');
  });

  it('merges by name in a linked worktree, and quotes what a shell would split', () => {
    expect(
      workspaceUpdateCommand({
        repositoryRoot: '/r',
        worktreePath: '/w/j_1',
        baseBranch: 'trunk',
        layout: 'worktree',
        action: 'rebase',
      }),
    ).toBe('git -C /w/j_1 rebase trunk');
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });
});
