import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ForeignWorkspaceError } from '../errors.js';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace, type TaskWorkspace } from './create-task-workspace.js';
import { importTaskBranch } from './import-task-branch.js';
import { landTaskBranch } from './land-task-branch.js';
import { listTaskWorkspaces } from './list-task-workspaces.js';
import { projectDirectoryName } from './project-directory-name.js';
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

/** A workspace as the pipeline leaves it: optionally one commit, imported into the user's task branch. */
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
  if (files) {
    const commit = target.commit(`work of ${jobId}`, files, workspace.worktreePath);
    await importTaskBranch({
      repositoryRoot: target.root,
      worktreePath: workspace.worktreePath,
      branch: workspace.branch,
      expectedCommit: commit,
    });
  }
  return workspace;
}

/** A task worktree as snodo made them before workspace repositories: linked, locked, on the shared branch. */
function legacyWorktreeFor(target: TestRepository, jobId: string, files?: Record<string, string>) {
  const worktreePath = path.join(
    target.worktreesDirectory,
    projectDirectoryName(path.join(target.root, '.git')),
    jobId,
  );
  const branch = `snodo/${jobId}-legacy`;
  const reason = `snodo job ${jobId} pid ${process.pid}`;
  target.git(['worktree', 'add', '--quiet', '--lock', '--reason', reason, '-b', branch, worktreePath]);
  if (files) target.commit(`work of ${jobId}`, files, worktreePath);
  return { worktreePath, branch, baseRef: 'refs/heads/trunk' };
}

const removeOptions = (
  target: TestRepository,
  workspace: { worktreePath: string; branch: string; baseRef?: string },
  force = false,
) => ({
  repositoryRoot: target.root,
  worktreesDirectory: target.worktreesDirectory,
  worktreePath: workspace.worktreePath,
  branch: workspace.branch,
  baseRef: workspace.baseRef ?? 'refs/heads/trunk',
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
    expect(target.read('done.txt')).toBe('done\n');
  });

  it('refuses a workspace with uncommitted changes unless forced, and keeps an unmerged branch unless forced', async () => {
    const target = setUp();
    const workspace = await workspaceFor(target, 'j_dirty', { 'work.txt': 'committed\n' });
    writeFileSync(path.join(workspace.worktreePath, 'unsaved.txt'), 'precious\n');
    const error = await removeTaskWorkspace(removeOptions(target, workspace)).catch((caught) => caught);
    expect(WorktreeDirtyError.isInstance(error)).toBe(true);
    expect(error.changedPaths).toEqual(['unsaved.txt']);
    expect(error.message).toContain('--force');
    expect(target.read('unsaved.txt', workspace.worktreePath)).toBe('precious\n');

    rmSync(path.join(workspace.worktreePath, 'unsaved.txt'));
    const kept = await removeTaskWorkspace(removeOptions(target, workspace));
    expect(kept).toEqual({ worktreeRemoved: true, branchDeleted: false, branchKeptReason: 'not-merged' });
    expect(target.git(['branch', '--list', workspace.branch])).toContain(workspace.branch);

    const forced = await removeTaskWorkspace(removeOptions(target, workspace, true));
    expect(forced.branchDeleted).toBe(true);
  });

  it('refuses to delete commits made in the workspace that were never imported, unless forced', async () => {
    const target = setUp();
    const workspace = await workspaceFor(target, 'j_mine', { 'coder.txt': 'coder\n' });
    // The user went into the kept workspace and committed there, on the branch and on one of their own.
    const own = target.commit('my fix', { 'fix.txt': 'fix\n' }, workspace.worktreePath);
    target.git(['branch', 'my-idea'], workspace.worktreePath);
    const error = await removeTaskWorkspace(removeOptions(target, workspace)).catch((caught) => caught);
    expect(error.code).toBe('ISOLATION_FAILED');
    expect(error.message).toContain(`${workspace.branch} (${own.slice(0, 12)})`);
    expect(error.message).toContain(`my-idea (${own.slice(0, 12)})`);
    expect(error.message).toContain('--force');
    expect(existsSync(workspace.worktreePath)).toBe(true);

    await importTaskBranch({
      repositoryRoot: target.root,
      worktreePath: workspace.worktreePath,
      branch: workspace.branch,
      expectedCommit: own,
    });
    const removed = await removeTaskWorkspace(removeOptions(target, workspace));
    expect(removed).toMatchObject({ worktreeRemoved: true, branchKeptReason: 'not-merged' });
    expect(target.git(['show', `${workspace.branch}:fix.txt`])).toBe('fix');
  });

  it('force discards uncommitted changes of a snodo workspace', async () => {
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

    // A workspace whose marker names another branch, or another repository, is left alone too.
    const workspace = await workspaceFor(target, 'j_marked');
    const otherBranch = await removeTaskWorkspace({
      ...removeOptions(target, workspace, true),
      branch: 'snodo/j_other-task',
    }).catch((caught) => caught);
    expect(otherBranch.code).toBe('WORKSPACE_FOREIGN');
    expect(otherBranch.message).toContain(`it is the workspace of ${workspace.branch}`);
    const other = createTestRepository({ name: 'other' });
    repositories.push(other);
    const otherRepository = await removeTaskWorkspace({
      ...removeOptions(target, workspace, true),
      repositoryRoot: other.root,
    }).catch((caught) => caught);
    expect(otherRepository.code).toBe('WORKSPACE_FOREIGN');
    expect(otherRepository.message).toContain(
      `a workspace of the repository ${path.join(target.root, '.git')}`,
    );

    // A linked worktree under snodo's directory but locked by someone else is left alone.
    const legacy = legacyWorktreeFor(target, 'j_locked');
    target.git(['worktree', 'unlock', legacy.worktreePath]);
    target.git(['worktree', 'lock', '--reason', 'keep this, I am debugging', legacy.worktreePath]);
    const locked = await removeTaskWorkspace(removeOptions(target, legacy, true)).catch((caught) => caught);
    expect(locked.code).toBe('WORKSPACE_FOREIGN');
    expect(locked.message).toContain('I am debugging');
    for (const kept of [workspace.worktreePath, legacy.worktreePath, own])
      expect(existsSync(kept)).toBe(true);
    expect(target.git(['branch', '--list', 'my-feature'])).toContain('my-feature');
  });

  it('cleans up workspaces whose directory was deleted behind snodo’s back, in both layouts', async () => {
    const target = setUp();
    const workspace = await workspaceFor(target, 'j_gone');
    rmSync(workspace.worktreePath, { recursive: true, force: true });
    expect(await removeTaskWorkspace(removeOptions(target, workspace))).toEqual({
      worktreeRemoved: true,
      branchDeleted: true,
    });
    expect(target.git(['branch', '--list', workspace.branch])).toBe('');

    const legacy = legacyWorktreeFor(target, 'j_legacy_gone');
    rmSync(legacy.worktreePath, { recursive: true, force: true });
    const listed = await listTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(listed.find((entry) => entry.jobId === 'j_legacy_gone')).toMatchObject({
      layout: 'worktree',
      missing: true,
      isSnodo: true,
      lockedBySnodo: true,
    });
    expect(await removeTaskWorkspace(removeOptions(target, legacy))).toEqual({
      worktreeRemoved: true,
      branchDeleted: true,
    });
    expect(target.git(['worktree', 'list'])).not.toContain('j_legacy_gone');
  });

  it('removes a linked worktree kept by an earlier snodo by the old rules', async () => {
    const target = setUp();
    const legacy = legacyWorktreeFor(target, 'j_legacy', { 'old.txt': 'old\n' });
    writeFileSync(path.join(legacy.worktreePath, 'wip.txt'), 'wip\n');
    const dirty = await removeTaskWorkspace(removeOptions(target, legacy)).catch((caught) => caught);
    expect(WorktreeDirtyError.isInstance(dirty)).toBe(true);
    rmSync(path.join(legacy.worktreePath, 'wip.txt'));
    expect(await removeTaskWorkspace(removeOptions(target, legacy))).toEqual({
      worktreeRemoved: true,
      branchDeleted: false,
      branchKeptReason: 'not-merged',
    });
    expect(target.git(['worktree', 'list'])).not.toContain('j_legacy');
    expect(existsSync(legacy.worktreePath)).toBe(false);
  });
});

describe('listTaskWorkspaces and pruneTaskWorkspaces', { timeout: 30_000 }, () => {
  it('marks snodo’s workspaces of both layouts and foreign ones, and prune leaves foreign ones alone', async () => {
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
    const legacy = legacyWorktreeFor(target, 'j_legacy', { 'l.txt': 'l\n' });

    const listed = await listTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
    });
    const byName = (entry: { path: string }) => path.basename(entry.path);
    expect(listed.map((entry) => [byName(entry), entry.layout, entry.isSnodo, entry.isMain]).sort()).toEqual([
      ['j_dirty', 'repository', true, false],
      ['j_legacy', 'worktree', true, false],
      ['j_merged', 'repository', true, false],
      ['j_unmerged', 'repository', true, false],
      ['my-own-worktree', 'worktree', false, false],
      ['project', 'worktree', false, true],
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
      head: target.revParse(merged.branch),
      lockedBySnodo: true,
      lockPid: process.pid,
      missing: false,
    });

    // A live job (the creating process is this test, still running) is never pruned.
    const live = await pruneTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
    });
    expect(live.map((entry) => entry.reason)).toEqual(['live', 'live', 'live', 'live']);

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
      ['j_legacy', 'would-remove', undefined],
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
      ['j_legacy', 'removed', true],
      ['j_merged', 'removed', false],
      ['j_unmerged', 'removed', true],
    ]);
    expect(target.git(['branch', '--list', merged.branch])).toBe('');
    expect(target.git(['branch', '--list', unmerged.branch])).toContain(unmerged.branch);
    expect(target.git(['branch', '--list', legacy.branch])).toContain(legacy.branch);
    expect(target.read('wip.txt', dirty.worktreePath)).toBe('wip\n');
    expect(existsSync(own)).toBe(true);
    expect(target.git(['worktree', 'list', '--porcelain'])).toContain('locked on a USB disk');
    expect(target.git(['branch', '--list', 'my-feature'])).toContain('my-feature');
  });

  it('skips a tampered workspace repository and one holding commits never imported', async () => {
    const target = setUp();
    const tampered = await workspaceFor(target, 'j_tampered');
    writeFileSync(path.join(tampered.worktreePath, '.git', 'commondir'), '/tmp\n');
    const unimported = await workspaceFor(target, 'j_unimported');
    target.commit('only here', { 'here.txt': 'here\n' }, unimported.worktreePath);
    const pruned = await pruneTaskWorkspaces({
      repositoryRoot: target.root,
      worktreesDirectory: target.worktreesDirectory,
      isJobLive: () => false,
    });
    expect(pruned.map((entry) => [entry.jobId, entry.action, entry.reason]).sort()).toEqual([
      ['j_tampered', 'skipped', 'tampered'],
      ['j_unimported', 'skipped', 'dirty'],
    ]);
    expect(existsSync(tampered.worktreePath)).toBe(true);
    expect(existsSync(unimported.worktreePath)).toBe(true);
  });
});
