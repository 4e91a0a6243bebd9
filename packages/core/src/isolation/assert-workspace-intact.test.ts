import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { assertWorkspaceIntact } from './assert-workspace-intact.js';
import { createTaskWorkspace, type TaskWorkspace } from './create-task-workspace.js';
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

async function setUp(): Promise<{ target: TestRepository; workspace: TaskWorkspace }> {
  const target = createTestRepository();
  repositories.push(target);
  const workspace = await createTaskWorkspace({
    repositoryRoot: target.root,
    jobId: 'j_intact',
    task: 'intact',
    worktreesDirectory: target.worktreesDirectory,
  });
  return { target, workspace };
}

function problemsOf(worktreePath: string): readonly string[] {
  try {
    assertWorkspaceIntact({ worktreePath });
    return [];
  } catch (error) {
    if (!WorkspaceTamperedError.isInstance(error)) throw error;
    return error.problems;
  }
}

describe('assertWorkspaceIntact', { timeout: 30_000 }, () => {
  it('returns the marker of a workspace as snodo made it, and names what a coder changed', async () => {
    const { target, workspace } = await setUp();
    const ws = workspace.worktreePath;
    const marker = assertWorkspaceIntact({
      worktreePath: ws,
      branch: workspace.branch,
      gitCommonDirectory: path.join(target.root, '.git'),
    });
    expect(marker).toMatchObject({ jobId: 'j_intact', branch: workspace.branch });

    // Emptied `.git` (git would climb to a parent repository), and a redirect in a submodule's git dir.
    rmSync(path.join(ws, '.git', 'HEAD'));
    mkdirSync(path.join(ws, '.git', 'modules', 'vendor', 'lib'), { recursive: true });
    writeFileSync(path.join(ws, '.git', 'modules', 'vendor', 'lib', 'HEAD'), 'ref: refs/heads/x\n');
    writeFileSync(path.join(ws, '.git', 'modules', 'vendor', 'lib', 'commondir'), '/tmp/evil\n');
    writeFileSync(path.join(ws, '.git', 'objects', 'info', 'alternates'), '/tmp/elsewhere\n');
    expect(problemsOf(ws)).toEqual([
      '.git/HEAD is missing',
      `.git/objects/info/alternates no longer names ${path.join(target.root, '.git', 'objects')}`,
      '.git/modules/vendor/lib/commondir appeared',
    ]);
  });

  it('refuses a .git that is a symlink or a file, and a missing marker', async () => {
    const { target, workspace } = await setUp();
    const ws = workspace.worktreePath;
    rmSync(path.join(ws, '.git', 'snodo-workspace.json'));
    expect(problemsOf(ws)).toEqual(['.git/snodo-workspace.json is missing or unreadable']);
    rmSync(path.join(ws, '.git'), { recursive: true });
    symlinkSync(path.join(target.root, '.git'), path.join(ws, '.git'));
    expect(problemsOf(ws)).toEqual(['.git is a symlink']);
    rmSync(path.join(ws, '.git'));
    writeFileSync(path.join(ws, '.git'), `gitdir: ${path.join(target.root, '.git')}\n`);
    expect(problemsOf(ws)).toEqual(['.git is a file']);
  });
});
