import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace, type TaskWorkspace } from './create-task-workspace.js';
import { ForeignWorkspaceError } from './foreign-workspace-error.js';
import { landTaskBranch } from './land-task-branch.js';
import { listTaskWorkspaces } from './list-task-workspaces.js';
import { pruneTaskWorkspaces } from './prune-task-workspaces.js';
import { removeTaskWorkspace } from './remove-task-workspace.js';
import { WorktreeDirtyError } from './worktree-dirty-error.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

function setUp(): TestRepository {
  const target = createTestRepository({ branch: 'trunk' });
  repositories.push(target);
  return target;
}

async function workspaceFor(
  target: TestRepository,
  jobId: string,
  files?: Record<string, string>,
): Promise<TaskWorkspace> {
  const workspace = await createTaskWorkspace({
    repositoryRoot: target.root,
    jobId,
    task: `job ${jobId}`,
    worktreesDirectory: target.worktreesDirectory,
  });
  if (files) target.commit(`work of ${jobId}`, files, workspace.worktreePath);
  return workspace;
}

const removeOptions = (target: TestRepository, workspace: TaskWorkspace, force = false) => ({
  repositoryRoot: target.root,
  worktreesDirectory: target.worktreesDirectory,
  worktreePath: workspace.worktreePath,
  branch: workspace.branch,
  baseRef: workspace.baseRef,
  force,
});

/** A worktree the user made themselves, on their own branch, outside snodo's directory. */
function userWorktree(target: TestRepository): string {
  const worktreePath = path.join(target.temporaryDirectory, 'my-own-worktree');
  target.git(['worktree', 'add', '--quiet', '-b', 'my-feature', worktreePath]);
  target.git(['worktree', 'lock', '--reason', 'on a USB disk', worktreePath]);
  return worktreePath;
}

describe('removeTaskWorkspace', { timeout: 30_000 }, () => {
  it('removes a merged workspace and its branch', async () => {
    const target = setUp();
    const workspace = await workspaceFor(target, 'j_done', { 'done.txt': 'done\n' });
    await landTaskBranch({
      ...removeOptions(target, workspace),
      baseCommit: workspace.baseCommit,
      strategy: 'squash',
      jobId: 'j_done',
      message: 'done',
    });
    const result = await removeTaskWorkspace(removeOptions(target, workspace));
    expect(result).toEqual({ worktreeRemoved: true, branchDeleted: true });
    expect(existsSync(workspace.worktreePath)).toBe(false);
    expect(target.git(['branch', '--list', workspace.branch])).toBe('');
    expect(target.git(['worktree', 'list'])).not.toContain('j_done');
  });

  it('refuses a worktree with uncommitted changes unless forced, and keeps an unmerged branch unless forced', async () => {
    const target = setUp();
    const workspace = await workspaceFor(target, 'j_dirty', { 'work.txt': 'committed\n' });
    writeFileSync(path.join(workspace.worktreePath, 'unsaved.txt'), 'precious\n');
    const error = await removeTaskWorkspace(removeOptions(target, workspace)).catch((caught) => caught);
    expect(WorktreeDirtyError.isInstance(error)).toBe(true);
    expect(error.changedPaths).toEqual(['unsaved.txt']);
    expect(error.message).toContain('--force');
    expect(target.read('unsaved.txt', workspace.worktreePath)).toBe('precious\n');

    target.git(['add', 'unsaved.txt'], workspace.worktreePath);
    target.git(['commit', '--quiet', '-m', 'save'], workspace.worktreePath);
    const kept = await removeTaskWorkspace(removeOptions(target, workspace));
    expect(kept).toEqual({ worktreeRemoved: true, branchDeleted: false, branchKeptReason: 'not-merged' });
    expect(target.git(['branch', '--list', workspace.branch])).toContain(workspace.branch);

    const forced = await removeTaskWorkspace(removeOptions(target, workspace, true));
    expect(forced.branchDeleted).toBe(true);
  });

  it('force discards uncommitted changes of a snodo worktree', async () => {
    const target = setUp();
    const workspace = await workspaceFor(target, 'j_force');
    writeFileSync(path.join(workspace.worktreePath, 'README.md'), 'changed\n');
    const result = await removeTaskWorkspace(removeOptions(target, workspace, true));
    expect(result.worktreeRemoved).toBe(true);
    expect(existsSync(workspace.worktreePath)).toBe(false);
  });

  it('never touches what snodo did not create, even with force', async () => {
    const target = setUp();
    const own = userWorktree(target);
    const outside = await removeTaskWorkspace({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      worktreePath: own,
      branch: 'snodo/j_fake-x',
      force: true,
    }).catch((caught) => caught);
    expect(ForeignWorkspaceError.isInstance(outside)).toBe(true);
    const wrongBranch = await removeTaskWorkspace({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      worktreePath: path.join(target.worktreesDirectory, 'x', 'j_1'),
      branch: 'my-feature',
      force: true,
    }).catch((caught) => caught);
    expect(wrongBranch.code).toBe('WORKSPACE_FOREIGN');

    // A worktree under snodo's directory but locked by someone else is left alone too.
    const workspace = await workspaceFor(target, 'j_locked');
    target.git(['worktree', 'unlock', workspace.worktreePath]);
    target.git(['worktree', 'lock', '--reason', 'keep this, I am debugging', workspace.worktreePath]);
    const locked = await removeTaskWorkspace(removeOptions(target, workspace, true)).catch(
      (caught) => caught,
    );
    expect(locked.code).toBe('WORKSPACE_FOREIGN');
    expect(locked.message).toContain('I am debugging');
    expect(existsSync(workspace.worktreePath)).toBe(true);
    expect(existsSync(own)).toBe(true);
    expect(target.git(['branch', '--list', 'my-feature'])).toContain('my-feature');
  });

  it('cleans up a workspace whose directory was deleted behind git’s back', async () => {
    const target = setUp();
    const workspace = await workspaceFor(target, 'j_gone');
    const { rmSync } = await import('node:fs');
    rmSync(workspace.worktreePath, { recursive: true, force: true });
    const listed = await listTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(listed.find((entry) => entry.jobId === 'j_gone')).toMatchObject({
      missing: true,
      isSnodo: true,
      lockedBySnodo: true,
    });
    const result = await removeTaskWorkspace(removeOptions(target, workspace));
    expect(result).toEqual({ worktreeRemoved: true, branchDeleted: true });
    expect(target.git(['worktree', 'list'])).not.toContain('j_gone');
  });
});

describe('listTaskWorkspaces and pruneTaskWorkspaces', { timeout: 30_000 }, () => {
  it('marks snodo’s worktrees and foreign ones, and prune leaves foreign ones alone', async () => {
    const target = setUp();
    const own = userWorktree(target);
    const merged = await workspaceFor(target, 'j_merged', { 'm.txt': 'm\n' });
    await landTaskBranch({
      ...removeOptions(target, merged),
      baseCommit: merged.baseCommit,
      strategy: 'merge',
      jobId: 'j_merged',
      message: 'm',
    });
    const unmerged = await workspaceFor(target, 'j_unmerged', { 'u.txt': 'u\n' });
    const dirty = await workspaceFor(target, 'j_dirty');
    writeFileSync(path.join(dirty.worktreePath, 'wip.txt'), 'wip\n');

    const listed = await listTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
    });
    const byName = (entry: { path: string }) => path.basename(entry.path);
    expect(listed.map((entry) => [byName(entry), entry.isSnodo, entry.isMain]).sort()).toEqual([
      ['j_dirty', true, false],
      ['j_merged', true, false],
      ['j_unmerged', true, false],
      ['my-own-worktree', false, false],
      ['project', false, true],
    ]);
    expect(listed[0]?.isMain).toBe(true);
    expect(listed.find((entry) => byName(entry) === 'my-own-worktree')).toMatchObject({
      branch: 'my-feature',
      locked: true,
      lockReason: 'on a USB disk',
      lockedBySnodo: false,
    });
    expect(listed.find((entry) => byName(entry) === 'j_merged')).toMatchObject({
      jobId: 'j_merged',
      branch: merged.branch,
      lockedBySnodo: true,
      lockPid: process.pid,
    });

    // A live job (the locking process is this test, still running) is never pruned.
    const live = await pruneTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(live.map((entry) => entry.reason)).toEqual(['live', 'live', 'live']);

    const notLive = { isJobLive: () => false };
    const tooRecent = await pruneTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      olderThanMs: 24 * 3_600_000,
      ...notLive,
    });
    expect(tooRecent.every((entry) => entry.action === 'skipped' && entry.reason === 'too-recent')).toBe(
      true,
    );

    const dryRun = await pruneTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      dryRun: true,
      ...notLive,
    });
    expect(dryRun.map((entry) => [entry.jobId, entry.action, entry.reason]).sort()).toEqual([
      ['j_dirty', 'skipped', 'dirty'],
      ['j_merged', 'would-remove', undefined],
      ['j_unmerged', 'would-remove', undefined],
    ]);
    expect(existsSync(merged.worktreePath)).toBe(true);

    const pruned = await pruneTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      baseRef: 'refs/heads/trunk',
      ...notLive,
    });
    expect(
      pruned.map((entry) => [entry.jobId, entry.action, entry.branchKept ?? entry.reason]).sort(),
    ).toEqual([
      ['j_dirty', 'skipped', 'dirty'],
      ['j_merged', 'removed', false],
      ['j_unmerged', 'removed', true],
    ]);
    expect(target.git(['branch', '--list', merged.branch])).toBe('');
    expect(target.git(['branch', '--list', unmerged.branch])).toContain(unmerged.branch);
    expect(target.read('wip.txt', dirty.worktreePath)).toBe('wip\n');
    expect(existsSync(own)).toBe(true);
    expect(target.git(['worktree', 'list', '--porcelain'])).toContain('locked on a USB disk');
    expect(target.git(['branch', '--list', 'my-feature'])).toContain('my-feature');
  });
});
