import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { withFileLock } from '@snodo/foundation';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { createTaskWorkspace, type TaskWorkspace } from './create-task-workspace.js';
import { importTaskBranch } from './import-task-branch.js';
import { type LandTaskBranchOptions, type LandTaskBranchResult, landTaskBranch } from './land-task-branch.js';
import { mergeLockPath } from './repository-merge-lock.js';
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

/** A repository on `trunk` with a few files, the main checkout on trunk. */
function setUp(): TestRepository {
  const target = createTestRepository({ branch: 'trunk' });
  repositories.push(target);
  target.commit('base files', {
    'src.txt': 'source v1\n',
    'other.txt': 'other v1\n',
    'docs/guide.md': 'guide\n',
  });
  return target;
}

let jobCounter = 0;
/** A task workspace with one commit writing `files`. */
async function taskWith(
  target: TestRepository,
  files: Record<string, string>,
): Promise<TaskWorkspace & { tip: string }> {
  jobCounter++;
  const workspace = await createTaskWorkspace({
    repositoryRoot: target.root,
    jobId: `j_land${jobCounter}`,
    task: `task ${jobCounter}`,
    worktreesDirectory: target.worktreesDirectory,
  });
  const tip = target.commit(`task ${jobCounter}`, files, workspace.worktreePath);
  await importTaskBranch({
    repositoryRoot: target.root,
    worktreePath: workspace.worktreePath,
    branch: workspace.branch,
    expectedCommit: tip,
  });
  return { ...workspace, tip };
}

/** Task workspaces made at once, one per entry of `files`. */
function tasksWith(
  target: TestRepository,
  ...files: Record<string, string>[]
): Promise<(TaskWorkspace & { tip: string })[]> {
  return Promise.all(files.map((written) => taskWith(target, written)));
}

function landOptions(
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
    trailers: { 'Snodo-Job': path.basename(workspace.worktreePath), 'Snodo-Checkpoint': 'sha256:abc' },
    ...extra,
  };
}

const noMergeState = (target: TestRepository, workspace: TaskWorkspace): void => {
  const gitDirectory = target.git(['rev-parse', '--absolute-git-dir'], workspace.worktreePath);
  for (const directory of [path.join(target.root, '.git'), gitDirectory]) {
    for (const file of ['MERGE_HEAD', 'SQUASH_MSG', 'MERGE_MSG', 'AUTO_MERGE']) {
      expect(existsSync(path.join(directory, file)), `${directory}/${file}`).toBe(false);
    }
  }
};

describe('landTaskBranch', { timeout: 30_000 }, () => {
  it('fast-forwards the base and updates the clean main checkout', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'feature.txt': 'feature\n', 'src.txt': 'source v2\n' });
    const result = await landTaskBranch(landOptions(target, task));
    expect(result).toMatchObject({
      outcome: 'merged',
      mergeCommit: task.tip,
      fastForward: true,
      previousBaseCommit: task.baseCommit,
    });
    expect(result.updatedCheckouts).toEqual([target.root]);
    expect(target.revParse('trunk')).toBe(task.tip);
    expect(target.read('feature.txt')).toBe('feature\n');
    expect(target.read('src.txt')).toBe('source v2\n');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('creates a merge commit with both parents, the message and trailers when the base moved', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'feature.txt': 'feature\n' });
    const moved = target.commit('someone else', { 'other.txt': 'other v2\n' });
    const result = await landTaskBranch(landOptions(target, task));
    expect(result.outcome).toBe('merged');
    expect(result.fastForward).toBe(false);
    expect(result.previousBaseCommit).toBe(moved);
    const merge = result.mergeCommit!;
    expect(target.revParse('trunk')).toBe(merge);
    expect(target.git(['log', '-1', '--format=%P', merge])).toBe(`${moved} ${task.tip}`);
    expect(target.git(['log', '-1', '--format=%B', merge])).toBe(
      `Land ${task.branch}\n\nSnodo-Job: ${path.basename(task.worktreePath)}\nSnodo-Checkpoint: sha256:abc`,
    );
    expect(target.git(['log', '-1', '--format=%an <%ae>', merge])).toBe('Test User <test@example.com>');
    expect(target.read('feature.txt')).toBe('feature\n');
    expect(target.read('other.txt')).toBe('other v2\n');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('ff-only refuses when the base moved and fast-forwards when it did not', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'feature.txt': 'feature\n' });
    const moved = target.commit('someone else', { 'other.txt': 'other v2\n' });
    const refused = await landTaskBranch(landOptions(target, task, { strategy: 'ff-only' }));
    expect(refused.outcome).toBe('not_fast_forward');
    expect(refused.message).toContain('ff-only');
    expect(target.revParse('trunk')).toBe(moved);

    const second = await taskWith(target, { 'second.txt': 'second\n' });
    const landed = await landTaskBranch(landOptions(target, second, { strategy: 'ff-only' }));
    expect(landed).toMatchObject({ outcome: 'merged', mergeCommit: second.tip, fastForward: true });
  });

  it('squashes the task into one commit whose only parent is the base', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'feature.txt': 'feature\n' });
    const second = target.commit('second task commit', { 'src.txt': 'source v2\n' }, task.worktreePath);
    await importTaskBranch({
      repositoryRoot: target.root,
      worktreePath: task.worktreePath,
      branch: task.branch,
      expectedCommit: second,
    });
    const base = target.revParse('trunk');
    const result = await landTaskBranch(
      landOptions(target, task, { strategy: 'squash', message: 'Add the feature' }),
    );
    expect(result.outcome).toBe('merged');
    const squash = result.mergeCommit!;
    expect(target.git(['log', '-1', '--format=%P', squash])).toBe(base);
    expect(target.git(['log', '-1', '--format=%s', squash])).toBe('Add the feature');
    expect(target.git(['diff', '--name-only', base, squash]).split('\n').sort()).toEqual([
      'feature.txt',
      'src.txt',
    ]);
    expect(target.read('src.txt')).toBe('source v2\n');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('strategy none keeps the branch and moves nothing', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'feature.txt': 'feature\n' });
    const base = target.revParse('trunk');
    const result = await landTaskBranch(landOptions(target, task, { strategy: 'none' }));
    expect(result.outcome).toBe('branch_kept');
    expect(target.revParse('trunk')).toBe(base);
    expect(target.revParse(task.branch)).toBe(task.tip);
    expect(existsSync(path.join(target.root, 'feature.txt'))).toBe(false);
  });

  it('detects a conflict before touching anything and lists the conflicted files', async () => {
    const target = setUp();
    const task = await taskWith(target, {
      'src.txt': 'task version\n',
      'docs/guide.md': 'task guide\n',
      'clean.txt': 'ok\n',
    });
    const moved = target.commit('conflicting base change', {
      'src.txt': 'base version\n',
      'docs/guide.md': 'base guide\n',
    });
    const result = await landTaskBranch(landOptions(target, task));
    expect(result.outcome).toBe('merge_conflict');
    expect([...(result.conflictedFiles ?? [])].sort()).toEqual(['docs/guide.md', 'src.txt']);
    expect(target.revParse('trunk')).toBe(moved);
    expect(target.revParse(task.branch)).toBe(task.tip);
    expect(target.git(['status', '--porcelain'])).toBe('');
    expect(target.git(['status', '--porcelain'], task.worktreePath)).toBe('');
    expect(target.read('src.txt')).toBe('base version\n');
    noMergeState(target, task);
  });

  it('lands while keeping the user’s unrelated uncommitted changes byte-identical and unstaged', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'feature.txt': 'feature\n', 'src.txt': 'source v2\n' });
    target.commit('base moved', { 'docs/guide.md': 'guide v2\n' });
    // The user's work in progress: an unstaged edit, a staged edit, an untracked file.
    writeFileSync(path.join(target.root, 'other.txt'), 'user edit, not committed\r\n\u00e9');
    writeFileSync(path.join(target.root, 'README.md'), 'staged by the user\n');
    target.git(['add', 'README.md']);
    writeFileSync(path.join(target.root, 'scratch.txt'), 'notes\n');
    const statusBefore = target.git(['status', '--porcelain']);
    const stagedBefore = target.git(['diff', '--cached', '--name-status']);

    const result = await landTaskBranch(landOptions(target, task));
    expect(result.outcome).toBe('merged');
    expect(target.revParse('trunk')).toBe(result.mergeCommit);
    expect(readFileSync(path.join(target.root, 'other.txt'), 'utf8')).toBe(
      'user edit, not committed\r\n\u00e9',
    );
    expect(target.read('scratch.txt')).toBe('notes\n');
    expect(target.read('feature.txt')).toBe('feature\n');
    expect(target.read('src.txt')).toBe('source v2\n');
    expect(target.git(['status', '--porcelain'])).toBe(statusBefore);
    expect(target.git(['diff', '--cached', '--name-status'])).toBe(stagedBefore);
    expect(stagedBefore).toBe('M\tREADME.md');
  });

  it('defers when the user’s uncommitted changes overlap the merge, touching nothing', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'src.txt': 'task version\n', 'docs/new/page.md': 'page\n' });
    const base = target.revParse('trunk');
    writeFileSync(path.join(target.root, 'src.txt'), 'user is editing this\n');
    const result = await landTaskBranch(landOptions(target, task));
    expect(result.outcome).toBe('merge_deferred');
    expect(result.overlappingPaths).toEqual(['src.txt']);
    expect(result.message).toContain(`snodo task merge ${path.basename(task.worktreePath)}`);
    expect(target.revParse('trunk')).toBe(base);
    expect(target.read('src.txt')).toBe('user is editing this\n');
    expect(target.git(['status', '--porcelain'])).toBe(' M src.txt');

    // An untracked file where the merge wants a directory overlaps too.
    target.git(['checkout', '--quiet', '--', 'src.txt']);
    writeFileSync(path.join(target.root, 'docs', 'new'), 'a file named like the new directory\n');
    const again = await landTaskBranch(landOptions(target, task));
    expect(again).toMatchObject({ outcome: 'merge_deferred', overlappingPaths: ['docs/new'] });
    expect(target.revParse('trunk')).toBe(base);

    // Once the user's file is out of the way, the same task lands.
    target.git(['clean', '--quiet', '-f', '--', 'docs/new']);
    expect((await landTaskBranch(landOptions(target, task))).outcome).toBe('merged');
  });

  it('defers while the user is in the middle of a merge in the checkout', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'feature.txt': 'feature\n' });
    target.git(['checkout', '--quiet', '-b', 'side', 'trunk~1']);
    target.commit('side', { 'src.txt': 'side version\n' });
    target.git(['checkout', '--quiet', 'trunk']);
    target.commit('trunk change', { 'src.txt': 'trunk version\n' });
    const base = target.revParse('trunk');
    expect(() => target.git(['merge', '--quiet', 'side'])).toThrow();
    const result = await landTaskBranch(landOptions(target, task));
    expect(result.outcome).toBe('merge_deferred');
    expect(result.message).toContain('a merge is in progress');
    expect(target.revParse('trunk')).toBe(base);
    expect(existsSync(path.join(target.root, '.git', 'MERGE_HEAD'))).toBe(true);
  });

  it('retries when the base moves between reading it and updating it, losing nothing', async () => {
    const target = setUp();
    target.git(['checkout', '--quiet', '-b', 'elsewhere']);
    const task = await taskWith(target, { 'feature.txt': 'feature\n' });
    let intruder = '';
    const attempts: number[] = [];
    const result = await landTaskBranch(
      landOptions(
        target,
        { ...task, baseRef: 'refs/heads/trunk' },
        {
          testHooks: {
            beforeBaseUpdate: (attempt) => {
              attempts.push(attempt);
              if (attempt !== 1) return;
              // Another writer moves trunk inside the window (with plumbing, as trunk is not checked out).
              const tree = target.git(['rev-parse', 'trunk^{tree}']);
              intruder = target.git(['commit-tree', tree, '-p', 'trunk', '-m', 'intruder']);
              target.git(['update-ref', 'refs/heads/trunk', intruder]);
            },
          },
        },
      ),
    );
    expect(attempts).toEqual([1, 2]);
    expect(result.outcome).toBe('merged');
    expect(result.previousBaseCommit).toBe(intruder);
    expect(target.git(['log', '-1', '--format=%P', 'trunk'])).toBe(`${intruder} ${task.tip}`);
  });

  it('undoes the base move when the user edits a merged file at the last moment, keeping their edit', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'src.txt': 'task version\n' });
    const base = target.revParse('trunk');
    const result = await landTaskBranch(
      landOptions(target, task, {
        testHooks: {
          // After the overlap check passed, the user saves src.txt: git must refuse to overwrite it.
          beforeBaseUpdate: () => writeFileSync(path.join(target.root, 'src.txt'), 'saved just now\n'),
        },
      }),
    );
    expect(result.outcome).toBe('merge_deferred');
    expect(result.message).toContain('refused');
    expect(target.revParse('trunk')).toBe(base);
    expect(target.read('src.txt')).toBe('saved just now\n');
    expect(target.git(['status', '--porcelain'])).toBe(' M src.txt');
    expect(target.git(['diff', '--cached', '--name-only'])).toBe('');
  });

  it('serialises concurrent landings in one process: all land, the base contains every task', async () => {
    const target = setUp();
    const tasks = await tasksWith(target, { 'a.txt': 'a\n' }, { 'b.txt': 'b\n' }, { 'c.txt': 'c\n' });
    const results = await Promise.all(tasks.map((task) => landTaskBranch(landOptions(target, task))));
    expect(results.map((result) => result.outcome)).toEqual(['merged', 'merged', 'merged']);
    for (const task of tasks) target.git(['merge-base', '--is-ancestor', task.tip, 'trunk']);
    expect(['a.txt', 'b.txt', 'c.txt'].map((file) => target.read(file))).toEqual(['a\n', 'b\n', 'c\n']);
    expect(target.git(['status', '--porcelain'])).toBe('');
    expect(existsSync(path.join(target.root, '.git', 'snodo-merge.lock'))).toBe(false);
  });

  it('serialises landings from two separate processes', { timeout: 30_000 }, async () => {
    const target = setUp();
    const tasks = await tasksWith(target, { 'one.txt': '1\n' }, { 'two.txt': '2\n' });
    const here = path.dirname(fileURLToPath(import.meta.url));
    const loader = pathToFileURL(path.resolve(here, '../../../../node_modules/tsx/dist/loader.mjs')).href;
    const script = path.join(target.temporaryDirectory, 'land-child.mjs');
    writeFileSync(
      script,
      `import { landTaskBranch } from ${JSON.stringify(pathToFileURL(path.join(here, 'land-task-branch.ts')).href)};\n` +
        'const result = await landTaskBranch(JSON.parse(process.argv[2]));\n' +
        'process.stdout.write(JSON.stringify(result));\n',
    );
    const run = promisify(execFile);
    const outputs = await Promise.all(
      tasks.map((task) =>
        run(process.execPath, ['--import', loader, script, JSON.stringify(landOptions(target, task))]),
      ),
    );
    const outcomes = outputs.map((output) => JSON.parse(output.stdout).outcome);
    expect(outcomes).toEqual(['merged', 'merged']);
    for (const task of tasks) target.git(['merge-base', '--is-ancestor', task.tip, 'trunk']);
    expect(target.read('one.txt') + target.read('two.txt')).toBe('1\n2\n');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('reports an already-merged branch without moving anything, and refuses a dirty task worktree', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'feature.txt': 'feature\n' });
    await landTaskBranch(landOptions(target, task));
    const tip = target.revParse('trunk');
    const again = await landTaskBranch(landOptions(target, task));
    expect(again).toMatchObject({ outcome: 'merged', alreadyMerged: true, mergeCommit: tip });

    const dirty = await taskWith(target, { 'more.txt': 'more\n' });
    writeFileSync(path.join(dirty.worktreePath, 'forgotten.txt'), 'not committed\n');
    const error = await landTaskBranch(landOptions(target, dirty)).catch((caught) => caught);
    expect(WorktreeDirtyError.isInstance(error)).toBe(true);
    expect(error.changedPaths).toEqual(['forgotten.txt']);
    expect(target.revParse('trunk')).toBe(tip);
  });

  it('refuses to land while the workspace holds a commit the task branch in the repository lacks', async () => {
    const target = setUp();
    const task = await taskWith(target, { 'src.txt': 'source v2\n' });
    target.commit('made in the workspace, never imported', { 'extra.txt': 'x\n' }, task.worktreePath);
    const before = target.revParse('trunk');
    await expect(landTaskBranch(landOptions(target, task))).rejects.toThrow(/run `snodo task merge/);
    expect(target.revParse('trunk')).toBe(before);
  });
});

describe('landing trains: landings of one process waiting for the lock land together', {
  timeout: 30_000,
}, () => {
  /**
   * Holds the repository's merge lock while `landings` start, until every one of them has been told who
   * holds it (they all wait at the station; one that is never told fails here, within 10 s), then lets go:
   * they land as one train.
   */
  async function landWhileLocked(
    target: TestRepository,
    landings: readonly LandTaskBranchOptions[],
  ): Promise<{ results: PromiseSettledResult<LandTaskBranchResult>[] }> {
    const told = new Set<string>();
    let pending: Promise<PromiseSettledResult<LandTaskBranchResult>[]> | undefined;
    await withFileLock(mergeLockPath(path.join(target.root, '.git')), async () => {
      pending = Promise.allSettled(
        landings.map((landing) => landTaskBranch({ ...landing, onLockWait: () => told.add(landing.jobId) })),
      );
      const since = Date.now();
      while (told.size < landings.length) {
        if (Date.now() - since > 10_000) {
          throw new Error(
            `only ${[...told].join(', ') || 'none'} of ${landings.length} landings were told they wait`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    return { results: await (pending as NonNullable<typeof pending>) };
  }

  const merged = (settled: PromiseSettledResult<LandTaskBranchResult>): LandTaskBranchResult => {
    if (settled.status === 'rejected') throw settled.reason;
    return settled.value;
  };

  it('moves the base once for three waiting landings, each on top of the one before, in arrival order', async () => {
    const target = setUp();
    const tasks = await tasksWith(target, { 'a.txt': 'a\n' }, { 'b.txt': 'b\n' }, { 'c.txt': 'c\n' });
    const base = target.revParse('trunk');
    const reflogBefore = target.git(['reflog', 'show', '--format=%gs', 'refs/heads/trunk']).split('\n');
    const { results } = await landWhileLocked(
      target,
      tasks.map((task) => landOptions(target, task)),
    );
    const landed = results.map(merged);
    expect(landed.map((result) => result.outcome)).toEqual(['merged', 'merged', 'merged']);
    // The train's order is the order the landings reached the lock: follow it from the old base.
    const chain: number[] = [];
    for (let previous = base; chain.length < 3; ) {
      const next = landed.findIndex((result) => result.previousBaseCommit === previous);
      expect(next, `a landing on top of ${previous}`).not.toBe(-1);
      chain.push(next);
      previous = landed[next]?.mergeCommit as string;
    }
    const [lead, ...rest] = chain.map((index) => ({
      result: landed[index] as LandTaskBranchResult,
      task: tasks[index] as TaskWorkspace & { tip: string },
    }));
    // The first fast-forwards the base; each later one is a merge commit on the one before.
    expect(lead?.result).toMatchObject({ fastForward: true, mergeCommit: lead?.task.tip });
    for (const { result, task } of rest) {
      expect(result.fastForward).toBe(false);
      expect(target.git(['log', '-1', '--format=%P', result.mergeCommit as string])).toBe(
        `${result.previousBaseCommit} ${task.tip}`,
      );
      expect(target.git(['log', '-1', '--format=%B', result.mergeCommit as string])).toContain(
        `Snodo-Job: ${path.basename(task.worktreePath)}`,
      );
    }
    const jobsInOrder = chain.map((index) => path.basename(tasks[index]?.worktreePath ?? ''));
    expect(target.revParse('trunk')).toBe(landed[chain[2] as number]?.mergeCommit);
    // One move of the base, named for the three jobs; the checkout has every file and nothing to commit.
    const reflog = target.git(['reflog', 'show', '--format=%gs', 'refs/heads/trunk']).split('\n');
    expect(reflog).toHaveLength(reflogBefore.length + 1);
    expect(reflog[0]).toBe(`snodo: land 3 task branches (jobs ${jobsInOrder.join(', ')})`);
    expect(['a.txt', 'b.txt', 'c.txt'].map((file) => target.read(file))).toEqual(['a\n', 'b\n', 'c\n']);
    expect(target.git(['status', '--porcelain'])).toBe('');
    // The ledger has each job's own move, so a later job's foreign-commit check knows every commit.
    const ledger = readFileSync(path.join(target.root, '.git', 'snodo', 'landings', 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { jobId: string; from: string; to: string });
    expect(ledger.map(({ jobId, from, to }) => ({ jobId, from, to }))).toEqual(
      chain.map((index, position) => ({
        jobId: jobsInOrder[position],
        from: landed[index]?.previousBaseCommit,
        to: landed[index]?.mergeCommit,
      })),
    );
  });

  it('leaves out a landing that conflicts with one before it, and one the user’s edits stand in the way of; the rest land', async () => {
    const target = setUp();
    const first = await taskWith(target, { 'src.txt': 'first version\n' });
    const clashing = await taskWith(target, { 'src.txt': 'clashing version\n' });
    const blocked = await taskWith(target, { 'docs/guide.md': 'rewritten guide\n' });
    const last = await taskWith(target, { 'last.txt': 'last\n' });
    writeFileSync(path.join(target.root, 'docs', 'guide.md'), 'the user is editing the guide\n');
    const { results } = await landWhileLocked(
      target,
      [first, clashing, blocked, last].map((task) => landOptions(target, task)),
    );
    const [one, two, three, four] = results.map(merged);
    // Whichever of the two edits of src.txt reached the lock first lands; the other then conflicts with it.
    const [winner, loser] = one?.outcome === 'merged' ? [one, two] : [two, one];
    const [winnerTask, loserTask] = one?.outcome === 'merged' ? [first, clashing] : [clashing, first];
    expect(winner?.outcome).toBe('merged');
    expect(loser).toMatchObject({ outcome: 'merge_conflict', conflictedFiles: ['src.txt'] });
    expect(loser?.message).toContain(`snodo task merge ${path.basename(loserTask.worktreePath)}`);
    expect(three).toMatchObject({ outcome: 'merge_deferred', overlappingPaths: ['docs/guide.md'] });
    expect(three?.message).toContain('uncommitted changes there touch files the merge changes');
    expect(four?.outcome).toBe('merged');
    for (const landedTask of [winnerTask, last])
      target.git(['merge-base', '--is-ancestor', landedTask.tip, 'trunk']);
    expect(target.read('src.txt')).toBe(winnerTask === first ? 'first version\n' : 'clashing version\n');
    expect(target.read('last.txt')).toBe('last\n');
    // The user's edit is as they left it, and the two kept tasks are not in the base.
    expect(target.read('docs/guide.md')).toBe('the user is editing the guide\n');
    expect(target.git(['status', '--porcelain'])).toBe(' M docs/guide.md');
    for (const kept of [loserTask, blocked]) {
      expect(() => target.git(['merge-base', '--is-ancestor', kept.tip, 'trunk'])).toThrow();
    }
  });

  it('keeps the whole train when git refuses the checkout update: the base goes back, nothing is lost', async () => {
    const target = setUp();
    // Both change src.txt: whichever reaches the lock second is judged on top of the first (a conflict).
    const tasks = await tasksWith(
      target,
      { 'src.txt': 'one version\n' },
      { 'src.txt': 'another version\n' },
      { 'refused.txt': 'refused\n' },
    );
    const base = target.revParse('trunk');
    // After the overlap check passed, the user saves src.txt: git refuses to overwrite it, and the train
    // is undone. The car judged on top of the undone one is kept too, not told it conflicts; a base check's
    // refusal was judged on the base itself and stands.
    const saving = {
      beforeBaseUpdate: () => writeFileSync(path.join(target.root, 'src.txt'), 'saved just now\n'),
    };
    const refusing: LandTaskBranchOptions['checkBase'] = async (current) => ({
      outcome: 'base_moved',
      previousBaseCommit: current,
      message: 'refused by the check',
    });
    const { results } = await landWhileLocked(
      target,
      tasks.map((task, index) =>
        landOptions(target, task, index === 2 ? { checkBase: refusing } : { testHooks: saving }),
      ),
    );
    const landed = results.map(merged);
    expect(landed.map((result) => result.outcome)).toEqual([
      'merge_deferred',
      'merge_deferred',
      'base_moved',
    ]);
    for (const result of landed.slice(0, 2)) expect(result.message).toContain('refused by git');
    expect(target.revParse('trunk')).toBe(base);
    expect(target.read('src.txt')).toBe('saved just now\n');
    expect(target.git(['status', '--porcelain'])).toBe(' M src.txt');
  });

  it('bounds each landing’s wait by its own timeout: the short one gives up, the other lands', async () => {
    const target = setUp();
    const tasks = await tasksWith(target, { 'a.txt': 'a\n' }, { 'b.txt': 'b\n' });
    let outcomes: Promise<PromiseSettledResult<LandTaskBranchResult>[]> | undefined;
    await withFileLock(mergeLockPath(path.join(target.root, '.git')), async () => {
      const started = Date.now();
      outcomes = Promise.allSettled([
        landTaskBranch(landOptions(target, tasks[0] as TaskWorkspace, { lockTimeoutMs: 300 })),
        landTaskBranch(landOptions(target, tasks[1] as TaskWorkspace, { lockTimeoutMs: 20_000 })),
      ]);
      // Hold the lock well past the short wait.
      while (Date.now() - started < 1_500) await new Promise((resolve) => setTimeout(resolve, 50));
    });
    const [short, long] = await (outcomes as NonNullable<typeof outcomes>);
    expect(short?.status).toBe('rejected');
    expect(String((short as PromiseRejectedResult).reason)).toMatch(/lock/i);
    expect(long).toMatchObject({ status: 'fulfilled', value: { outcome: 'merged' } });
    expect(target.read('b.txt')).toBe('b\n');
    expect(existsSync(path.join(target.root, 'a.txt'))).toBe(false);
  });

  it('runs the base checks of a train side by side, not one car after another', async () => {
    const target = setUp();
    const tasks = await tasksWith(target, { 'a.txt': 'a\n' }, { 'b.txt': 'b\n' }, { 'c.txt': 'c\n' });
    // Each check answers only once all three have started: checked one car after another, the first would
    // wait for the others forever, so it gives up after 5 s and fails its car.
    let started = 0;
    let allStarted: () => void = () => undefined;
    const everyCheckStarted = new Promise<void>((resolve) => {
      allStarted = resolve;
    });
    const check: NonNullable<LandTaskBranchOptions['checkBase']> = async () => {
      started += 1;
      if (started === tasks.length) allStarted();
      const waited = await Promise.race([
        everyCheckStarted.then(() => 'together' as const),
        new Promise<'alone'>((resolve) => setTimeout(() => resolve('alone'), 5_000).unref()),
      ]);
      if (waited === 'alone') throw new Error(`only ${started} of ${tasks.length} base checks ran at once`);
      return undefined;
    };
    const { results } = await landWhileLocked(
      target,
      tasks.map((task) => landOptions(target, task, { checkBase: check })),
    );
    expect(results.map((result) => merged(result).outcome)).toEqual(['merged', 'merged', 'merged']);
    for (const task of tasks) target.git(['merge-base', '--is-ancestor', task.tip, 'trunk']);
    expect(target.git(['status', '--porcelain'])).toBe('');
    expect(target.read('c.txt')).toBe('c\n');
  });

  it('tells only the refused landing when its base check refuses, and a failing one does not stop the others', async () => {
    const target = setUp();
    const tasks = await tasksWith(target, { 'a.txt': 'a\n' }, { 'b.txt': 'b\n' }, { 'c.txt': 'c\n' });
    const base = target.revParse('trunk');
    const seen: string[] = [];
    const checks: NonNullable<LandTaskBranchOptions['checkBase']>[] = [
      async (current) => {
        seen.push(current);
        return undefined;
      },
      async (current) => {
        seen.push(current);
        return { outcome: 'base_moved', previousBaseCommit: current, message: 'refused by the check' };
      },
      async (current) => {
        seen.push(current);
        throw new Error('the check itself failed');
      },
    ];
    const { results } = await landWhileLocked(
      target,
      tasks.map((task, index) => landOptions(target, task, { checkBase: checks[index] })),
    );
    expect(merged(results[0] as PromiseSettledResult<LandTaskBranchResult>)).toMatchObject({
      outcome: 'merged',
      mergeCommit: tasks[0]?.tip,
      fastForward: true,
    });
    expect(merged(results[1] as PromiseSettledResult<LandTaskBranchResult>)).toMatchObject({
      outcome: 'base_moved',
      message: 'refused by the check',
    });
    expect(results[2]).toMatchObject({ status: 'rejected', reason: { message: 'the check itself failed' } });
    // Every check judged the base as the lock found it (the train's own commits are snodo's), not a
    // commit of the train: landed one by one, the checks after the first would have seen a.txt's commit.
    expect(seen).toEqual([base, base, base]);
    expect(target.revParse('trunk')).toBe(tasks[0]?.tip);
    expect(existsSync(path.join(target.root, 'b.txt'))).toBe(false);
    expect(existsSync(path.join(target.root, 'c.txt'))).toBe(false);
  });
});
