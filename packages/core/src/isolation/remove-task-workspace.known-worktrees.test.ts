import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listWorktrees } from '../git/list-worktrees.js';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace } from './create-task-workspace.js';
import { removeTaskWorkspace } from './remove-task-workspace.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

async function setUp(jobId: string) {
  const target = createTestRepository({ branch: 'trunk' });
  repositories.push(target);
  const workspace = await createTaskWorkspace({
    repositoryRoot: target.root,
    jobId,
    task: 'known worktrees',
    worktreesDirectory: target.worktreesDirectory,
  });
  return { target, workspace };
}

// After a landing, removal reuses the worktree list the landing read under the merge lock.
describe('removeTaskWorkspace with the worktrees a landing read', { timeout: 30_000 }, () => {
  it('removes the workspace and the merged branch without listing them again', async () => {
    const { target, workspace } = await setUp('j_known1');
    const removed = await removeTaskWorkspace({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      worktreePath: workspace.worktreePath,
      branch: workspace.branch,
      baseRef: workspace.baseRef,
      worktrees: await listWorktrees(target.root),
    });
    expect(removed).toMatchObject({ worktreeRemoved: true, branchDeleted: true });
    expect(existsSync(workspace.worktreePath)).toBe(false);
  });

  it('still keeps a branch the list shows checked out in one of the user’s worktrees', async () => {
    const { target, workspace } = await setUp('j_known2');
    target.git([
      'worktree',
      'add',
      '-q',
      path.join(target.temporaryDirectory, 'users-tree'),
      workspace.branch,
    ]);
    const removed = await removeTaskWorkspace({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      worktreePath: workspace.worktreePath,
      branch: workspace.branch,
      baseRef: workspace.baseRef,
      worktrees: await listWorktrees(target.root),
    });
    expect(removed).toMatchObject({
      worktreeRemoved: true,
      branchDeleted: false,
      branchKeptReason: 'checked-out',
    });
    expect(target.git(['branch', '--list', workspace.branch])).toContain(workspace.branch);
  });
});
