import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace, type TaskWorkspace } from './create-task-workspace.js';
import { importTaskBranch } from './import-task-branch.js';
import { WorkspaceBranchMismatchError } from './workspace-branch-mismatch-error.js';
import { WorkspaceTamperedError } from './workspace-tampered-error.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

async function setUp(jobId = 'j_import'): Promise<{ target: TestRepository; workspace: TaskWorkspace }> {
  const target = createTestRepository({ branch: 'trunk' });
  repositories.push(target);
  const workspace = await createTaskWorkspace({
    repositoryRoot: target.root,
    jobId,
    task: 'import me',
    worktreesDirectory: target.worktreesDirectory,
  });
  return { target, workspace };
}

const importOptions = (target: TestRepository, workspace: TaskWorkspace, expectedCommit: string) => ({
  repositoryRoot: target.root,
  worktreePath: workspace.worktreePath,
  branch: workspace.branch,
  expectedCommit,
});

describe('importTaskBranch', { timeout: 30_000 }, () => {
  it("moves the user's task branch to the workspace's commit and copies its objects, once", async () => {
    const { target, workspace } = await setUp();
    const commit = target.commit(
      'coder work',
      { 'src/feature.ts': 'export const x = 1;\n' },
      workspace.worktreePath,
    );
    expect(() => target.git(['cat-file', '-e', `${commit}^{commit}`])).toThrow();

    const imported = await importTaskBranch(importOptions(target, workspace, commit));
    expect(imported).toEqual({ commit, previousCommit: workspace.baseCommit, moved: true });
    expect(target.revParse(`refs/heads/${workspace.branch}`)).toBe(commit);
    target.git(['cat-file', '-e', `${commit}^{commit}`]);
    expect(target.git(['show', `${commit}:src/feature.ts`])).toBe('export const x = 1;');
    // No tag, FETCH_HEAD or helper ref was left behind in the user's repository.
    expect(existsSync(path.join(target.root, '.git', 'FETCH_HEAD'))).toBe(false);
    expect(target.git(['for-each-ref', '--format=%(refname)']).split('\n').sort()).toEqual([
      `refs/heads/${workspace.branch}`,
      'refs/heads/trunk',
    ]);
    expect(await importTaskBranch(importOptions(target, workspace, commit))).toEqual({
      commit,
      previousCommit: commit,
      moved: false,
    });
  });

  it('refuses when the workspace branch is not at the commit snodo read (a coder moved it afterwards)', async () => {
    const { target, workspace } = await setUp();
    const judged = target.commit('judged', { 'a.txt': 'judged\n' }, workspace.worktreePath);
    const sneaked = target.commit('sneaked in', { 'a.txt': 'backdoor\n' }, workspace.worktreePath);
    const error = await importTaskBranch(importOptions(target, workspace, judged)).catch((caught) => caught);
    expect(WorkspaceBranchMismatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'WORKSPACE_BRANCH_MISMATCH',
      mismatch: 'workspace-moved',
      actualCommit: sneaked,
    });
    expect(error.message).toContain('Nothing was moved');
    expect(target.revParse(`refs/heads/${workspace.branch}`)).toBe(workspace.baseCommit);
    expect(() => target.git(['cat-file', '-e', `${sneaked}^{commit}`])).toThrow();
  });

  it('runs no git in a workspace whose .git was redirected with commondir (a planted filter never runs)', async () => {
    const { target, workspace } = await setUp();
    const ws = workspace.worktreePath;
    const commit = target.commit('work', { 'a.txt': 'a\n' }, ws);
    const canary = path.join(target.temporaryDirectory, 'filter-ran');
    const evil = path.join(ws, '.git', 'evil');
    mkdirSync(path.join(evil, 'refs'), { recursive: true });
    mkdirSync(path.join(evil, 'objects'), { recursive: true });
    writeFileSync(path.join(evil, 'HEAD'), `ref: refs/heads/${workspace.branch}\n`);
    writeFileSync(
      path.join(evil, 'config'),
      `[filter "x"]\n\tclean = touch ${canary}\n\tsmudge = touch ${canary}\n`,
    );
    writeFileSync(path.join(ws, '.gitattributes'), '* filter=x\n');
    writeFileSync(path.join(ws, '.git', 'commondir'), `${evil}\n`);
    const error = await importTaskBranch(importOptions(target, workspace, commit)).catch((caught) => caught);
    expect(WorkspaceTamperedError.isInstance(error)).toBe(true);
    expect(error.problems).toEqual(['.git/commondir appeared']);
    expect(existsSync(canary)).toBe(false);
    expect(target.revParse(`refs/heads/${workspace.branch}`)).toBe(workspace.baseCommit);
    // The attack is real: any git command there, hooks disabled or not, now runs the planted filter.
    target.write({ 'b.txt': 'b\n' }, ws);
    target.git(['add', 'b.txt'], ws);
    expect(existsSync(canary)).toBe(true);

    rmSync(path.join(ws, '.git', 'commondir'));
    renameSync(path.join(ws, '.git'), path.join(ws, 'moved-git'));
    const moved = await importTaskBranch(importOptions(target, workspace, commit)).catch((caught) => caught);
    expect(moved.code).toBe('WORKSPACE_TAMPERED');
    expect(moved.message).toContain('.git is gone');
  });

  it("refuses a workspace whose marker names another branch or another repository's objects", async () => {
    const { target, workspace } = await setUp();
    const commit = target.commit('work', { 'a.txt': 'a\n' }, workspace.worktreePath);
    const wrongBranch = await importTaskBranch({
      ...importOptions(target, workspace, commit),
      branch: 'snodo/j_other-x',
    }).catch((caught) => caught);
    expect(wrongBranch.code).toBe('WORKSPACE_TAMPERED');
    expect(wrongBranch.message).toContain(`names the branch ${workspace.branch}`);

    const other = createTestRepository({ name: 'other' });
    repositories.push(other);
    const stolen = await importTaskBranch({
      ...importOptions(target, workspace, commit),
      repositoryRoot: other.root,
    }).catch((caught) => caught);
    expect(stolen.code).toBe('WORKSPACE_TAMPERED');
    expect(stolen.message).toContain(`names the repository ${path.join(target.root, '.git')}`);
  });

  it('only confirms the branch of a linked worktree kept by an earlier snodo', async () => {
    const target = createTestRepository({ branch: 'trunk' });
    repositories.push(target);
    const legacy = path.join(target.worktreesDirectory, 'project', 'j_old');
    target.git([
      'worktree',
      'add',
      '--quiet',
      '--lock',
      '--reason',
      'snodo job j_old pid 1',
      '-b',
      'snodo/j_old-x',
      legacy,
    ]);
    const commit = target.commit('old work', { 'old.txt': 'old\n' }, legacy);
    const options = { repositoryRoot: target.root, worktreePath: legacy, branch: 'snodo/j_old-x' };
    expect(await importTaskBranch({ ...options, expectedCommit: commit })).toEqual({
      commit,
      previousCommit: commit,
      moved: false,
    });
    const stale = await importTaskBranch({ ...options, expectedCommit: target.revParse('trunk') }).catch(
      (caught) => caught,
    );
    expect(stale.mismatch).toBe('workspace-moved');
  });
});
