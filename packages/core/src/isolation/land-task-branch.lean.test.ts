import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace, type TaskWorkspace } from './create-task-workspace.js';
import { importTaskBranch } from './import-task-branch.js';
import { type LandTaskBranchOptions, landTaskBranch } from './land-task-branch.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

let jobCounter = 0;
async function setUp(files: Record<string, string>) {
  const target = createTestRepository({ branch: 'trunk' });
  repositories.push(target);
  target.commit('base files', { 'src.txt': 'source v1\n' });
  jobCounter += 1;
  const workspace = await createTaskWorkspace({
    repositoryRoot: target.root,
    jobId: `j_lean${jobCounter}`,
    task: `lean ${jobCounter}`,
    worktreesDirectory: target.worktreesDirectory,
  });
  const tip = target.commit('task', files, workspace.worktreePath);
  await importTaskBranch({
    repositoryRoot: target.root,
    worktreePath: workspace.worktreePath,
    branch: workspace.branch,
    expectedCommit: tip,
  });
  return { target, workspace, tip };
}

function options(
  target: TestRepository,
  workspace: TaskWorkspace,
  extra: Partial<LandTaskBranchOptions> = {},
) {
  return {
    repositoryRoot: target.root,
    baseRef: workspace.baseRef,
    baseCommit: workspace.baseCommit,
    branch: workspace.branch,
    worktreePath: workspace.worktreePath,
    strategy: 'merge' as const,
    jobId: path.basename(workspace.worktreePath),
    message: `Land ${workspace.branch}`,
    ...extra,
  };
}

// Landing reads the workspace's HEAD file instead of asking `rev-parse`, and takes the changed paths from
// the gates' diff when it moves the base exactly over that diff: both must refuse what they refused.
describe('landTaskBranch on the lean path', { timeout: 30_000 }, () => {
  it('still refuses a workspace whose HEAD was switched off the task branch', async () => {
    const { target, workspace } = await setUp({ 'feature.txt': 'feature\n' });
    target.git(['switch', '-q', '-c', 'elsewhere'], workspace.worktreePath);
    await expect(landTaskBranch(options(target, workspace))).rejects.toThrow(/no longer on/);
    target.git(['switch', '-q', '--detach'], workspace.worktreePath);
    await expect(landTaskBranch(options(target, workspace))).rejects.toThrow(/no longer on/);
  });

  it('defers on a dirty user path the known changes name, and ignores them for other commits', async () => {
    const { target, workspace, tip } = await setUp({ 'feature.txt': 'feature\n' });
    writeFileSync(path.join(target.root, 'feature.txt'), 'the user’s own draft\n');
    const known = { from: workspace.baseCommit, to: tip, paths: ['feature.txt'] };
    const deferred = await landTaskBranch(options(target, workspace, { knownChangedPaths: known }));
    expect(deferred).toMatchObject({ outcome: 'merge_deferred', overlappingPaths: ['feature.txt'] });
    expect(target.revParse('trunk')).toBe(workspace.baseCommit);
    // A list of other commits is not trusted: git's own diff decides (and names the same path).
    const stale = { from: tip, to: workspace.baseCommit, paths: [] };
    const again = await landTaskBranch(options(target, workspace, { knownChangedPaths: stale }));
    expect(again).toMatchObject({ outcome: 'merge_deferred', overlappingPaths: ['feature.txt'] });
  });

  it('lands a fast-forward with the known changes, bringing the checkout along', async () => {
    const { target, workspace, tip } = await setUp({ 'feature.txt': 'feature\n' });
    const landed = await landTaskBranch(
      options(target, workspace, {
        knownChangedPaths: { from: workspace.baseCommit, to: tip, paths: ['feature.txt'] },
      }),
    );
    expect(landed).toMatchObject({ outcome: 'merged', fastForward: true, mergeCommit: tip });
    expect(target.read('feature.txt')).toBe('feature\n');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });
});
