import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSharedRemote, type SharedRemote, type WorkerClone } from '../testing/shared-remote-fixture.js';
import { readAuditAnchors } from './audit-trailer.js';
import { landTrainOnRemote } from './land-train-on-remote.js';
import type { LandingCar, LandingTrainRequest } from './landing-train-request.js';

let remote: SharedRemote | undefined;
afterEach(() => remote?.cleanup());

const slow = { timeout: 120_000 };

function train(
  worker: WorkerClone,
  cars: readonly LandingCar[],
  extra: Partial<LandingTrainRequest> = {},
): LandingTrainRequest {
  return {
    clone: worker.root,
    remote: 'origin',
    base: 'main',
    workerId: worker.workerId,
    snodoHome: worker.snodoHome,
    cars,
    ...extra,
  };
}

function car(worker: WorkerClone, jobId: string, files: Record<string, string>, base?: string): LandingCar {
  return { jobId, ...worker.task(jobId, files, base) };
}

/** A fresh shared remote (kept for cleanup) with worker w1's clone, and the base its tasks start from. */
function freshWorker(): { shared: SharedRemote; worker: WorkerClone; base: string } {
  const shared = createSharedRemote();
  remote = shared;
  const worker = shared.clone('w1');
  return { shared, worker, base: worker.git(['rev-parse', 'origin/main']) };
}

/** The remote chain's events of one type. */
function chainEvents(shared: SharedRemote, workerId: string, type: string) {
  return shared
    .remoteGit(['show', `refs/snodo/audit/${workerId}:audit.log`])
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as { seq: number; type: string; job?: string; data: Record<string, unknown> },
    )
    .filter((event) => event.type === type);
}

describe('landTrainOnRemote', () => {
  it(
    'lands a train on a moved base in one push, one landing commit per job on the first-parent line, each ' +
      'anchored to its own event; the car that conflicts is kept and the train goes on; one re-check',
    slow,
    async () => {
      const { shared, worker, base } = freshWorker();
      const cars = [
        car(worker, 'j_a', { 'a.txt': 'a\n' }, base),
        car(worker, 'j_clash', { 'README.md': 'mine\n' }, base),
        car(worker, 'j_c', { 'c.txt': 'c\n' }, base),
      ];
      const moved = shared.push('someone else', { 'README.md': 'theirs\n' });
      const recheck = vi.fn(async () => ({ ok: true as const }));

      const result = await landTrainOnRemote(train(worker, cars, { recheck }));

      expect(result.trainId).toMatch(/^t_[0-9a-f]{12}$/);
      expect(result.cars.map((entry) => [entry.jobId, entry.result.status, entry.settled])).toEqual([
        ['j_a', 'landed', true],
        ['j_clash', 'kept', true],
        ['j_c', 'landed', true],
      ]);
      expect(result.cars[1]?.result).toMatchObject({ conflictedFiles: ['README.md'] });
      // Once, on the last tree (both landing changes together), with the jobs in it.
      expect(recheck).toHaveBeenCalledTimes(1);
      expect(recheck).toHaveBeenCalledWith(expect.objectContaining({ base: moved, jobIds: ['j_a', 'j_c'] }));

      const tip = shared.remoteGit(['rev-parse', 'refs/heads/main']);
      const landedC = result.cars[2]?.result;
      const landedA = result.cars[0]?.result;
      expect(landedC?.status === 'landed' && landedC.commit).toBe(tip);
      // main → L(c) → L(a) → the moved base: two landing commits on the first-parent line.
      const firstParents = shared
        .remoteGit(['rev-list', '--first-parent', '--max-count=3', 'main'])
        .split('\n');
      expect(firstParents).toEqual([tip, landedA?.status === 'landed' ? landedA.commit : '', moved]);
      expect(shared.remoteGit(['show', `${tip}:c.txt`])).toBe('c');
      expect(shared.remoteGit(['show', `${tip}:a.txt`])).toBe('a');
      expect(shared.remoteGit(['show', `${tip}:README.md`])).toBe('theirs');
      // The landing removed the landed jobs' refs (a push of its own); the kept one's stays for whoever looks at it.
      const jobRefs = shared
        .remoteGit(['for-each-ref', '--format=%(refname)', 'refs/snodo/jobs/'])
        .split('\n');
      expect(jobRefs).toEqual(['refs/snodo/jobs/j_clash']);

      const starts = chainEvents(shared, 'w1', 'remote-landing-start');
      expect(starts.map((event) => [event.job, event.data.train])).toEqual([
        ['j_a', { id: result.trainId, position: 1, size: 3 }],
        ['j_c', { id: result.trainId, position: 3, size: 3 }],
      ]);
      for (const [index, commit] of [firstParents[1], firstParents[0]].entries()) {
        const message = shared.remoteGit(['log', '-1', '--format=%B', commit as string]);
        const start = starts[index];
        expect(message).toContain(`Snodo-Job: ${start?.job}`);
        expect(readAuditAnchors(message)).toEqual([
          { worker: 'w1', seq: start?.seq, hash: expect.any(String) },
        ]);
        expect(shared.remoteGit(['rev-parse', `${commit}^{tree}`])).toBe(start?.data.tree);
      }
      // The landed ends follow the push, so the lander's own log holds them (the next snapshot carries them).
      const ends = readFileSync(join(worker.root, '.snodo', 'audit.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; job?: string; data: Record<string, unknown> })
        .filter((event) => event.type === 'remote-landing-end');
      expect(ends.map((event) => [event.job, event.data.outcome])).toEqual([
        ['j_clash', 'kept'],
        ['j_a', 'landed'],
        ['j_c', 'landed'],
      ]);
    },
  );

  it(
    'a failed re-check of the train lands each car alone: the good ones land, the bad one is kept naming its gate',
    slow,
    async () => {
      const { shared, worker, base } = freshWorker();
      const cars = [
        car(worker, 'j_good1', { 'one.txt': 'one\n' }, base),
        car(worker, 'j_bad', { 'bad.txt': 'bad\n' }, base),
        car(worker, 'j_good2', { 'two.txt': 'two\n' }, base),
      ];
      shared.push('someone else', { 'other.txt': 'other\n' });
      // A deterministic gate: fails any tree holding bad.txt.
      const recheck = vi.fn(async ({ commit }: { commit: string }) => {
        const files = worker.git(['ls-tree', '--name-only', commit]).split('\n');
        return files.includes('bad.txt')
          ? { ok: false as const, reason: 'command gate no-bad failed: bad.txt is present' }
          : { ok: true as const };
      });

      const result = await landTrainOnRemote(train(worker, cars, { recheck }));

      expect(result.landedAloneBecause).toContain('the re-check of the train (3 landings');
      expect(result.cars.map((entry) => [entry.jobId, entry.result.status])).toEqual([
        ['j_good1', 'landed'],
        ['j_bad', 'kept'],
        ['j_good2', 'landed'],
      ]);
      const kept = result.cars[1]?.result;
      expect(kept?.status === 'kept' && kept.reason).toContain('command gate no-bad failed');
      // The train, then each car on its own.
      expect(recheck).toHaveBeenCalledTimes(4);
      const tip = shared.remoteGit(['rev-parse', 'refs/heads/main']);
      expect(shared.remoteGit(['ls-tree', '--name-only', tip]).split('\n')).not.toContain('bad.txt');
      expect(shared.remoteGit(['show', `${tip}:two.txt`])).toBe('two');
    },
  );

  it(
    'a car that conflicts only with an earlier car of the train is not kept for good: when that car fails ' +
      'to land, the later one lands on its own',
    slow,
    async () => {
      const { shared, worker, base } = freshWorker();
      const cars = [
        car(worker, 'j_first', { 'shared.txt': 'first\n' }, base),
        car(worker, 'j_second', { 'shared.txt': 'second\n' }, base),
      ];
      shared.push('someone else', { 'other.txt': 'other\n' });
      // The first car's change fails the gate, so it never lands.
      const recheck = vi.fn(async ({ commit }: { commit: string }) =>
        worker.git(['show', `${commit}:shared.txt`]) === 'first'
          ? { ok: false as const, reason: 'command gate no-first failed' }
          : { ok: true as const },
      );

      const result = await landTrainOnRemote(train(worker, cars, { recheck }));

      expect(result.cars.map((entry) => [entry.jobId, entry.result.status, entry.settled])).toEqual([
        ['j_first', 'kept', true],
        ['j_second', 'kept', false],
      ]);
      const deferred = result.cars[1]?.result;
      expect(deferred?.status === 'kept' && deferred.reason).toContain('lands on its own after the train');

      // Its turn comes (the queue lands an unsettled rider alone): it applies, since j_first did not land.
      const alone = await landTrainOnRemote(train(worker, [cars[1] as LandingCar], { recheck }));
      expect(alone.cars[0]?.result.status).toBe('landed');
      expect(shared.remoteGit(['show', 'refs/heads/main:shared.txt'])).toBe('second');
    },
  );

  it(
    'a car withdrawn right before the push (its job was cancelled) is kept, settled, with the reason; the ' +
      'train is rebuilt and re-checked without it and the others land; nothing of it reaches the base',
    slow,
    async () => {
      const { shared, worker, base } = freshWorker();
      const cars = [
        car(worker, 'j_a', { 'a.txt': 'a\n' }, base),
        car(worker, 'j_cancelled', { 'b.txt': 'b\n' }, base),
        car(worker, 'j_c', { 'c.txt': 'c\n' }, base),
      ];
      shared.push('someone else', { 'other.txt': 'other\n' });
      const recheck = vi.fn(async (_candidate: { jobIds: readonly string[] }) => ({ ok: true as const }));
      // Cancelled while the train was re-checked: the first answer withdraws it, later ones have nothing to say.
      let asked = 0;
      const withdrawn = vi.fn(async (jobIds: readonly string[]) =>
        asked++ === 0 && jobIds.includes('j_cancelled')
          ? [{ jobId: 'j_cancelled', reason: 'cancelled by alice' }]
          : [],
      );

      const result = await landTrainOnRemote(train(worker, cars, { recheck, withdrawn }));

      expect(result.cars.map((entry) => [entry.jobId, entry.result.status, entry.settled])).toEqual([
        ['j_a', 'landed', true],
        ['j_cancelled', 'kept', true],
        ['j_c', 'landed', true],
      ]);
      const kept = result.cars[1]?.result;
      expect(kept?.status === 'kept' && kept.reason).toBe('withdrawn before the push: cancelled by alice');
      expect(withdrawn.mock.calls.map(([jobIds]) => jobIds)).toEqual([
        ['j_a', 'j_cancelled', 'j_c'],
        ['j_a', 'j_c'],
      ]);
      // The second re-check is of the train that lands: j_c's tree no longer holds the withdrawn change.
      expect(recheck.mock.calls.map(([candidate]) => candidate.jobIds)).toEqual([
        ['j_a', 'j_cancelled', 'j_c'],
        ['j_a', 'j_c'],
      ]);
      const tip = shared.remoteGit(['rev-parse', 'refs/heads/main']);
      expect(shared.remoteGit(['ls-tree', '--name-only', tip]).split('\n')).toEqual(
        expect.arrayContaining(['a.txt', 'c.txt', 'other.txt']),
      );
      expect(shared.remoteGit(['ls-tree', '--name-only', tip]).split('\n')).not.toContain('b.txt');
      expect(shared.remoteGit(['log', '--format=%B', 'main'])).not.toContain('Snodo-Job: j_cancelled');
      // Its job ref stays on the remote (nothing landed it); the landed ones' are gone.
      expect(shared.remoteGit(['for-each-ref', '--format=%(refname)', 'refs/snodo/jobs/'])).toBe(
        'refs/snodo/jobs/j_cancelled',
      );
    },
  );

  it('a train whose every car is withdrawn pushes nothing', slow, async () => {
    const { shared, worker, base } = freshWorker();
    const only = car(worker, 'j_gone', { 'gone.txt': 'gone\n' }, base);
    const before = shared.remoteGit(['rev-parse', 'refs/heads/main']);

    const result = await landTrainOnRemote(
      train(worker, [only], {
        withdrawn: async (jobIds) => jobIds.map((jobId) => ({ jobId, reason: 'its landing job is gone' })),
      }),
    );

    expect(result.cars[0]).toMatchObject({
      settled: true,
      result: { status: 'kept', reason: 'withdrawn before the push: its landing job is gone' },
    });
    expect(shared.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(before);
  });

  it(
    'a remote that refuses deletions still takes the landing; the landed job ref stays there',
    slow,
    async () => {
      const { shared, worker, base } = freshWorker();
      // A server that protects refs/snodo/jobs/* from deletion (receive.denyDeletes covers only branches).
      const hook = join(shared.bare, 'hooks', 'pre-receive');
      writeFileSync(
        hook,
        '#!/bin/sh\nwhile read old new ref; do\n  case "$new $ref" in\n' +
          '    0000000000000000000000000000000000000000\\ refs/snodo/jobs/*) echo "protected: $ref" >&2; exit 1;;\n' +
          '  esac\ndone\n',
        { mode: 0o755 },
      );
      const only = car(worker, 'j_kept_ref', { 'kept.txt': 'kept\n' }, base);

      const result = await landTrainOnRemote(train(worker, [only]));

      expect(result.cars[0]?.result.status).toBe('landed');
      expect(shared.remoteGit(['show', 'refs/heads/main:kept.txt'])).toBe('kept');
      expect(shared.remoteGit(['for-each-ref', '--format=%(refname)', 'refs/snodo/jobs/'])).toBe(
        'refs/snodo/jobs/j_kept_ref',
      );
    },
  );
});
