import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BaseBranchNotFoundError } from '../errors.js';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace } from './create-task-workspace.js';
import { resolveBaseBranch } from './resolve-base-branch.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
const repository = (): TestRepository => {
  const created = createTestRepository({ branch: 'trunk' });
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

// runTask resolves the base once, when the job starts, and hands the choice to the isolate stage, which
// reads only the branch's commit again (it asked git for the checked-out branch a second time before).
describe('createTaskWorkspace with the base chosen at the start of the job', { timeout: 30_000 }, () => {
  it('starts from the chosen branch at its commit now, even after the user switched branches', async () => {
    const target = repository();
    const chosen = await resolveBaseBranch({ repositoryRoot: target.root });
    expect(chosen).toMatchObject({ baseBranch: 'trunk', source: 'checkout' });
    // Meanwhile (the pre-execute judges run) the user commits on trunk, then switches to another branch.
    const newer = target.commit('the user keeps working', { 'notes.txt': 'notes\n' });
    target.git(['switch', '-q', '-c', 'elsewhere']);
    target.commit('elsewhere', { 'other.txt': 'other\n' });
    const workspace = await createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_chosen1',
      task: 'chosen base',
      worktreesDirectory: target.worktreesDirectory,
      chosenBase: chosen,
    });
    expect(workspace).toMatchObject({
      baseBranch: 'trunk',
      baseRef: 'refs/heads/trunk',
      baseCommit: newer,
      baseSource: 'checkout',
    });
    expect(target.git(['rev-parse', 'HEAD'], workspace.worktreePath)).toBe(newer);
  });

  it('refuses, creating nothing, when the chosen branch was deleted since', async () => {
    const target = repository();
    target.git(['branch', 'release']);
    const chosen = await resolveBaseBranch({ repositoryRoot: target.root, base: 'release' });
    target.git(['branch', '-D', 'release']);
    const created = createTaskWorkspace({
      repositoryRoot: target.root,
      jobId: 'j_chosen2',
      task: 'gone',
      worktreesDirectory: target.worktreesDirectory,
      chosenBase: chosen,
    });
    await expect(created).rejects.toSatisfy((error: unknown) => BaseBranchNotFoundError.isInstance(error));
    expect(target.git(['branch', '--list', 'snodo/*'])).toBe('');
  });
});
