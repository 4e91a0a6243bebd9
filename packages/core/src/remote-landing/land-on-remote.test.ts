import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSharedRemote, type SharedRemote, type WorkerClone } from '../testing/shared-remote-fixture.js';
import { readAuditAnchors } from './audit-trailer.js';
import { landOnRemote } from './land-on-remote.js';
import type { RemoteLandingRequest } from './remote-landing-request.js';

let remote: SharedRemote | undefined;
afterEach(() => remote?.cleanup());

const slow = { timeout: 120_000 };

function request(
  worker: WorkerClone,
  jobId: string,
  task: { taskCommit: string; taskBase: string },
  extra: Partial<RemoteLandingRequest> = {},
): RemoteLandingRequest {
  return {
    clone: worker.root,
    remote: 'origin',
    base: 'main',
    jobId,
    workerId: worker.workerId,
    snodoHome: worker.snodoHome,
    ...task,
    ...extra,
  };
}

/** The events of a worker's chain as the remote holds it (`refs/snodo/audit/<worker>:audit.log`). */
function remoteChain(
  shared: SharedRemote,
  workerId: string,
): Array<{ seq: number; hash: string; type: string; data: Record<string, unknown> }> {
  return shared
    .remoteGit(['show', `refs/snodo/audit/${workerId}:audit.log`])
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('landOnRemote', () => {
  it(
    'lands a task on an unchanged base as a merge commit whose trailer names the event in the pushed chain',
    slow,
    async () => {
      remote = createSharedRemote();
      const worker = remote.clone('w1');
      const task = worker.task('j_one', { 'one.txt': 'one\n' });

      const result = await landOnRemote(request(worker, 'j_one', task));

      expect(result).toMatchObject({ status: 'landed', attempts: 1, rejectedPushes: 0 });
      if (result.status !== 'landed') return;
      expect(remote.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(result.commit);
      expect(remote.remoteGit(['rev-parse', `${result.commit}^1`])).toBe(task.taskBase);
      expect(remote.remoteGit(['rev-parse', `${result.commit}^2`])).toBe(task.taskCommit);
      expect(remote.remoteGit(['show', `${result.commit}:one.txt`])).toBe('one');
      const message = remote.remoteGit(['log', '-1', '--format=%B', result.commit]);
      expect(message).toContain('Snodo-Job: j_one');
      const [anchor] = readAuditAnchors(message);
      expect(anchor).toMatchObject({ worker: 'w1' });
      const event = remoteChain(remote, 'w1').find((entry) => entry.seq === (anchor as { seq: number }).seq);
      expect(event).toMatchObject({
        type: 'remote-landing-start',
        hash: (anchor as { hash: string }).hash,
        data: { task_commit: task.taskCommit, base_commit: task.taskBase, recheck: 'not-needed' },
      });
      // The clone's own status stays clean: the chain lives in ignored runtime files.
      expect(worker.git(['status', '--porcelain'])).toBe('');

      // A retried queue job finds its landing instead of landing twice.
      const again = await landOnRemote(request(worker, 'j_one', task));
      expect(again).toMatchObject({ status: 'landed', commit: result.commit, alreadyLanded: true });
      expect(remote.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(result.commit);
    },
  );

  it('re-checks on a moved base and lands on top of it', slow, async () => {
    remote = createSharedRemote();
    const worker = remote.clone('w1');
    const task = worker.task('j_two', { 'two.txt': 'two\n' });
    const moved = remote.push('someone else', { 'other.txt': 'other\n' });
    const recheck = vi.fn(async () => ({ ok: true as const }));

    const result = await landOnRemote(request(worker, 'j_two', task, { recheck }));

    expect(result.status).toBe('landed');
    if (result.status !== 'landed') return;
    expect(recheck).toHaveBeenCalledTimes(1);
    const candidate = (recheck.mock.calls[0] as unknown as [{ commit: string; base: string }])[0];
    expect(candidate.base).toBe(moved);
    expect(remote.remoteGit(['rev-parse', `${result.commit}^1`])).toBe(moved);
    expect(remote.remoteGit(['ls-tree', '--name-only', result.commit]).split('\n')).toEqual(
      expect.arrayContaining(['README.md', 'other.txt', 'two.txt']),
    );
    // What was re-checked is what landed.
    expect(remote.remoteGit(['rev-parse', `${result.commit}^{tree}`])).toBe(
      worker.git(['rev-parse', `${candidate.commit}^{tree}`]),
    );
  });

  it('keeps the job when the re-check fails on the moved base, and nothing moves', slow, async () => {
    remote = createSharedRemote();
    const worker = remote.clone('w1');
    const task = worker.task('j_three', { 'three.txt': 'three\n' });
    const moved = remote.push('someone else', { 'other.txt': 'other\n' });

    const result = await landOnRemote(
      request(worker, 'j_three', task, { recheck: async () => ({ ok: false, reason: 'tests failed' }) }),
    );

    expect(result).toMatchObject({ status: 'kept', reason: expect.stringContaining('tests failed') });
    expect(remote.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(moved);
  });

  it('keeps a change that conflicts with the moved base, naming the file', slow, async () => {
    remote = createSharedRemote();
    const worker = remote.clone('w1');
    const task = worker.task('j_four', { 'README.md': 'mine\n' });
    const moved = remote.push('someone else', { 'README.md': 'theirs\n' });
    const recheck = vi.fn(async () => ({ ok: true as const }));

    const result = await landOnRemote(request(worker, 'j_four', task, { recheck }));

    expect(result).toMatchObject({ status: 'kept', conflictedFiles: ['README.md'] });
    if (result.status === 'kept') expect(result.reason).toContain('README.md');
    expect(recheck).not.toHaveBeenCalled();
    expect(remote.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(moved);
  });

  it(
    'three optimistic landers at once: all land, every rejected push recovered, no commit lost',
    slow,
    async () => {
      remote = createSharedRemote();
      const workers = ['w1', 'w2', 'w3'].map((id) => remote?.clone(id) as WorkerClone);
      const tasks = workers.map((worker, index) =>
        worker.task(`j_race${index}`, { [`race${index}.txt`]: `${index}\n` }),
      );
      // The base moves once before anyone lands, so every first attempt re-checks; the re-check waits until
      // all three have fetched the same base, which makes the first round a real race every time.
      remote.push('someone else', { 'other.txt': 'other\n' });
      let arrived = 0;
      let release: () => void = () => {};
      const allFetched = new Promise<void>((resolve) => {
        release = resolve;
      });
      const barrier = async () => {
        arrived += 1;
        if (arrived === 3) release();
        if (arrived <= 3) await allFetched;
        return { ok: true as const };
      };

      const results = await Promise.all(
        workers.map((worker, index) =>
          landOnRemote(
            request(worker, `j_race${index}`, tasks[index] as { taskCommit: string; taskBase: string }, {
              recheck: barrier,
            }),
          ),
        ),
      );

      expect(results.map((result) => (result.status === 'kept' ? result.reason : result.status))).toEqual([
        'landed',
        'landed',
        'landed',
      ]);
      const rejected = results.reduce(
        (sum, result) => sum + (result.status === 'landed' ? result.rejectedPushes : 0),
        0,
      );
      expect(rejected).toBeGreaterThanOrEqual(2);
      const main = remote.remoteGit(['rev-parse', 'refs/heads/main']);
      const files = remote.remoteGit(['ls-tree', '--name-only', main]).split('\n');
      expect(files).toEqual(expect.arrayContaining(['other.txt', 'race0.txt', 'race1.txt', 'race2.txt']));
      const landings = remote
        .remoteGit(['log', '--first-parent', '--format=%H', main])
        .split('\n')
        .filter((commit) => results.some((result) => result.status === 'landed' && result.commit === commit));
      expect(landings).toHaveLength(3);
      // Each chain records its own rejections: as many `rejected` ends as the lander reported.
      for (const [index, worker] of workers.entries()) {
        const result = results[index];
        const ends = remoteChain(remote, worker.workerId).filter(
          (event) => event.type === 'remote-landing-end' && event.data.outcome === 'rejected',
        );
        expect(ends).toHaveLength(result?.status === 'landed' ? result.rejectedPushes : -1);
      }
    },
  );

  it(
    'keeps the job with the reason when every allowed push lost the race (bounded retries)',
    slow,
    async () => {
      remote = createSharedRemote();
      const workers = ['w1', 'w2'].map((id) => remote?.clone(id) as WorkerClone);
      const tasks = workers.map((worker, index) =>
        worker.task(`j_bound${index}`, { [`bound${index}.txt`]: 'x\n' }),
      );
      remote.push('someone else', { 'other.txt': 'other\n' });
      let arrived = 0;
      let release: () => void = () => {};
      const bothFetched = new Promise<void>((resolve) => {
        release = resolve;
      });
      const barrier = async () => {
        arrived += 1;
        if (arrived === 2) release();
        await bothFetched;
        return { ok: true as const };
      };

      const results = await Promise.all(
        workers.map((worker, index) =>
          landOnRemote(
            request(worker, `j_bound${index}`, tasks[index] as { taskCommit: string; taskBase: string }, {
              recheck: barrier,
              maxAttempts: 1,
            }),
          ),
        ),
      );

      const landed = results.filter((result) => result.status === 'landed');
      const kept = results.filter((result) => result.status === 'kept');
      expect(landed).toHaveLength(1);
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({
        attempts: 1,
        reason: expect.stringContaining('another lander moved main'),
      });
      expect(remote.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(
        (landed[0] as { commit: string }).commit,
      );
    },
  );

  it(
    'keeps the job, saying why, when the remote holds the single-machine refs/snodo/audit',
    slow,
    async () => {
      remote = createSharedRemote();
      const worker = remote.clone('w1');
      const task = worker.task('j_df', { 'df.txt': 'df\n' });
      remote.remoteGit(['update-ref', 'refs/snodo/audit', task.taskBase]);

      const result = await landOnRemote(request(worker, 'j_df', task));

      expect(result).toMatchObject({
        status: 'kept',
        attempts: 1,
        reason: expect.stringContaining('point audit.remote'),
      });
      expect(remote.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(task.taskBase);
    },
  );

  it('a cancelled landing pushes nothing and says so', slow, async () => {
    remote = createSharedRemote();
    const worker = remote.clone('w1');
    const task = worker.task('j_stop', { 'stop.txt': 'stop\n' });
    const controller = new AbortController();
    controller.abort();

    const result = await landOnRemote(request(worker, 'j_stop', task, { signal: controller.signal }));

    expect(result).toMatchObject({
      status: 'kept',
      attempts: 0,
      reason: expect.stringContaining('cancelled'),
    });
    expect(remote.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(task.taskBase);
  });

  it('refuses a remote that is not configured and a worker id that cannot name a ref (exit 2 codes)', async () => {
    remote = createSharedRemote();
    const worker = remote.clone('w1');
    const task = { taskCommit: 'a'.repeat(40), taskBase: 'b'.repeat(40) };
    await expect(landOnRemote(request(worker, 'j_x', task, { remote: 'nowhere' }))).rejects.toMatchObject({
      code: 'REMOTE_LANDING_INVALID',
      message: expect.stringContaining('git remote add nowhere'),
    });
    await expect(landOnRemote(request(worker, 'j_x', task, { workerId: '../w' }))).rejects.toMatchObject({
      code: 'REMOTE_LANDING_INVALID',
    });
  });
});
