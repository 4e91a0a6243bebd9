import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { ensureRuntimeExclusions } from '../pipeline/runtime-exclusions.js';
import { findForeignBaseCommits } from './foreign-base-commits.js';
import {
  appendLandingLedger,
  landingLedgerOffset,
  landingsDirectory,
  readLandingJournals,
  readLandingLedger,
} from './landing-journal.js';
import { recoverInterruptedLandings } from './recover-interrupted-landings.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

/** The pid of a process that has exited (so a journal naming it belongs to a dead landing). */
function deadPid(): number {
  const child = spawnSync('sh', ['-c', 'echo $$']);
  return Number(child.stdout.toString().trim());
}

/**
 * What snodo leaves when it is killed right after moving the base: the journal on disk, the base ref at
 * the landed commit, and the main checkout's index and files still at the old commit.
 */
function interruptedLanding(target: TestRepository): { from: string; to: string } {
  ensureRuntimeExclusions(path.join(target.root, '.git'));
  const from = target.revParse('HEAD');
  target.git(['checkout', '--quiet', '-b', 'snodo/j_crash-task']);
  const to = target.commit('task', { 'feature.txt': 'new feature\n', 'README.md': 'hello, changed\n' });
  target.git(['checkout', '--quiet', 'trunk']);
  const journalDirectory = landingsDirectory(target.root);
  spawnSync('mkdir', ['-p', journalDirectory]);
  writeFileSync(
    path.join(journalDirectory, 'journal-j_crash.json'),
    JSON.stringify({
      version: 1,
      jobId: 'j_crash',
      baseRef: 'refs/heads/trunk',
      from,
      to,
      checkouts: [target.root],
      pid: deadPid(),
      hostname: hostname(),
      startedAt: new Date().toISOString(),
    }),
  );
  target.git(['update-ref', 'refs/heads/trunk', to, from]);
  return { from, to };
}

describe('recoverInterruptedLandings', { timeout: 30_000 }, () => {
  it('finishes a landing killed after the base moved: the checkout shows the landed commit, clean', async () => {
    const target = createTestRepository();
    repositories.push(target);
    const { to } = interruptedLanding(target);
    // The state the bug left: `git commit -a` here would silently revert the merge.
    expect(target.git(['status', '--porcelain'])).not.toBe('');

    const recovered = await recoverInterruptedLandings(target.root);

    expect(recovered).toEqual([
      expect.objectContaining({ jobId: 'j_crash', action: 'finished', updatedCheckouts: [target.root] }),
    ]);
    expect(recovered[0]?.message).toContain('Finished the landing of j_crash');
    expect(target.git(['status', '--porcelain'])).toBe('');
    expect(target.read('feature.txt')).toBe('new feature\n');
    expect(readLandingJournals(target.root).journals).toEqual([]);
    expect(readLandingLedger(target.root, 'refs/heads/trunk').map((move) => move.to)).toEqual([to]);
  });

  it('finishes an interrupted train and names each of its jobs with its own part of the move', async () => {
    const target = createTestRepository();
    repositories.push(target);
    ensureRuntimeExclusions(path.join(target.root, '.git'));
    const from = target.revParse('HEAD');
    target.git(['checkout', '--quiet', '-b', 'snodo/train']);
    const first = target.commit('first car', { 'one.txt': '1\n' });
    const second = target.commit('second car', { 'two.txt': '2\n' });
    target.git(['checkout', '--quiet', 'trunk']);
    spawnSync('mkdir', ['-p', landingsDirectory(target.root)]);
    writeFileSync(
      path.join(landingsDirectory(target.root), 'journal-j_first.json'),
      JSON.stringify({
        version: 1,
        jobId: 'j_first',
        baseRef: 'refs/heads/trunk',
        from,
        to: second,
        checkouts: [target.root],
        cars: [
          { jobId: 'j_first', from, to: first },
          { jobId: 'j_second', from: first, to: second },
        ],
        pid: deadPid(),
        hostname: hostname(),
        startedAt: new Date().toISOString(),
      }),
    );
    target.git(['update-ref', 'refs/heads/trunk', second, from]);

    const [recovered] = await recoverInterruptedLandings(target.root);

    expect(recovered).toMatchObject({ action: 'finished', from, to: second });
    expect(recovered?.cars).toEqual([
      { jobId: 'j_first', from, to: first },
      { jobId: 'j_second', from: first, to: second },
    ]);
    expect(recovered?.message).toContain('Finished the landing of j_first, j_second');
    expect(target.read('one.txt') + target.read('two.txt')).toBe('1\n2\n');
    expect(target.git(['status', '--porcelain'])).toBe('');
    expect(readLandingJournals(target.root).journals).toEqual([]);
  });

  it('keeps the user’s unrelated edits and staged files while finishing', async () => {
    const target = createTestRepository();
    repositories.push(target);
    target.commit('more', { 'notes.txt': 'notes v1\n' });
    interruptedLanding(target);
    target.write({ 'notes.txt': 'my edit\n', 'scratch.txt': 'untracked\n' });

    const [recovered] = await recoverInterruptedLandings(target.root);

    expect(recovered?.action).toBe('finished');
    expect(target.git(['status', '--porcelain']).split('\n').sort()).toEqual([
      ' M notes.txt',
      '?? scratch.txt',
    ]);
    expect(target.read('notes.txt')).toBe('my edit\n');
  });

  it('never overwrites the user’s edit to a file the landing changed: refuses, keeps the journal, says what to do', async () => {
    const target = createTestRepository();
    repositories.push(target);
    const { from, to } = interruptedLanding(target);
    writeFileSync(path.join(target.root, 'README.md'), 'the user typed this\n');

    const [recovered] = await recoverInterruptedLandings(target.root);

    expect(recovered?.action).toBe('checkout-refused');
    expect(recovered?.message).toContain(`git read-tree -m -u ${from} ${to}`);
    expect(readFileSync(path.join(target.root, 'README.md'), 'utf8')).toBe('the user typed this\n');
    expect(readLandingJournals(target.root).journals.map((journal) => journal.jobId)).toEqual(['j_crash']);

    // Once the user has put their edit aside, the next start finishes it.
    target.git(['checkout', '--quiet', from, '--', 'README.md']);
    const [again] = await recoverInterruptedLandings(target.root);
    expect(again?.action).toBe('finished');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('finishing twice is harmless: a checkout already at the landed commit is left as it is', async () => {
    const target = createTestRepository();
    repositories.push(target);
    const { from, to } = interruptedLanding(target);
    target.git(['read-tree', '-m', '-u', from, to]);
    expect(target.git(['status', '--porcelain'])).toBe('');

    const [recovered] = await recoverInterruptedLandings(target.root);

    expect(recovered?.action).toBe('finished');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('drops the journal of a landing that died before the base moved', async () => {
    const target = createTestRepository();
    repositories.push(target);
    const { from } = interruptedLanding(target);
    target.git(['update-ref', 'refs/heads/trunk', from]);
    target.git(['read-tree', '-u', '--reset', from]);

    const [recovered] = await recoverInterruptedLandings(target.root);

    expect(recovered?.action).toBe('not-moved');
    expect(readLandingLedger(target.root, 'refs/heads/trunk')).toEqual([]);
    expect(existsSync(path.join(landingsDirectory(target.root), 'journal-j_crash.json'))).toBe(false);
  });

  it('leaves the journal of a live landing alone', async () => {
    const target = createTestRepository();
    repositories.push(target);
    interruptedLanding(target);
    const journalPath = path.join(landingsDirectory(target.root), 'journal-j_crash.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(journalPath, JSON.stringify({ ...journal, pid: process.pid, startTimeMs: undefined }));

    expect(await recoverInterruptedLandings(target.root)).toEqual([]);
    expect(existsSync(journalPath)).toBe(true);
  });
});

describe('findForeignBaseCommits', () => {
  it('names the commits the base gained that no snodo landing made, and only those', async () => {
    const target = createTestRepository();
    repositories.push(target);
    const since = target.revParse('HEAD');
    const offset = landingLedgerOffset(target.root);
    const before = target.revParse('HEAD');
    const landedBySnodo = target.commit('landed by snodo', { 'a.txt': 'a\n' });
    appendLandingLedger(target.root, {
      jobId: 'j_other',
      baseRef: 'refs/heads/trunk',
      from: before,
      to: landedBySnodo,
    });
    const users = target.commit('the user’s own commit', { 'b.txt': 'b\n' });

    const found = await findForeignBaseCommits({
      repositoryRoot: target.root,
      baseRef: 'refs/heads/trunk',
      since,
      current: users,
      ledgerOffset: offset,
    });

    expect(found).toEqual({ count: 1, commits: [{ commit: users, subject: 'the user’s own commit' }] });
  });

  it('finds nothing when the base only moved through snodo landings, or did not move', async () => {
    const target = createTestRepository();
    repositories.push(target);
    const since = target.revParse('HEAD');
    const landed = target.commit('landed', { 'a.txt': 'a\n' });
    appendLandingLedger(target.root, { jobId: 'j_x', baseRef: 'refs/heads/trunk', from: since, to: landed });
    const options = { repositoryRoot: target.root, baseRef: 'refs/heads/trunk', since, ledgerOffset: 0 };
    expect(await findForeignBaseCommits({ ...options, current: landed })).toEqual({ count: 0, commits: [] });
    expect(await findForeignBaseCommits({ ...options, current: since })).toEqual({ count: 0, commits: [] });
  });

  it('ignores moves of other bases and moves recorded before the job started', async () => {
    const target = createTestRepository();
    repositories.push(target);
    const since = target.revParse('HEAD');
    const commit = target.commit('someone', { 'a.txt': 'a\n' });
    appendLandingLedger(target.root, {
      jobId: 'j_y',
      baseRef: 'refs/heads/develop',
      from: since,
      to: commit,
    });
    const offset = landingLedgerOffset(target.root);
    const found = await findForeignBaseCommits({
      repositoryRoot: target.root,
      baseRef: 'refs/heads/trunk',
      since,
      current: commit,
      ledgerOffset: offset,
    });
    expect(found.count).toBe(1);
  });
});
