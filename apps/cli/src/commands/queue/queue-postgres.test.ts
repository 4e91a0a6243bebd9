import { openQueueConnection, submitTask } from '@snodo/queue';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createQueueFixture,
  landedJobs,
  POSTGRES_BIN,
  POSTGRES_SKIP_REASON,
  type QueueFixture,
  REDIS_SERVER,
  waitFor,
} from './queue-test-fixture.js';

// BullMQ's own PostgreSQL backend (queue.url postgres://…): the same submit, workers, landing queue and
// cancellation as on Redis, on a throw-away PostgreSQL cluster of 127.0.0.1.
describe.skipIf(POSTGRES_BIN === undefined || REDIS_SERVER === undefined)(
  'snodo worker on PostgreSQL',
  () => {
    let fixture: QueueFixture | undefined;
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    it('2 workers × 2 slots land 4 tasks once each, with BullMQ keeping its schema in the database', async () => {
      fixture = await createQueueFixture(undefined, 'postgres');
      const queue = fixture;
      expect(queue.queueUrl).toMatch(/^postgres:\/\//);
      const submitter = queue.machine('submitter');
      const first = await submitter.snodo(['submit', 'Add file-p0', '--coder', 'sleepy', '-m', 'mock/pass']);
      expect(first.exitCode, first.all).toBe(0);
      const again = await submitter.snodo(['submit', 'Add file-p0', '--coder', 'sleepy', '-m', 'mock/pass']);
      expect(again.stdout.trim()).toBe(first.stdout.trim());
      const ids = [first.stdout.trim()];
      const connection = openQueueConnection(queue.queueUrl);
      for (const name of ['p1', 'p2', 'p3']) {
        const submitted = await submitTask({
          connection,
          cwd: submitter.clone,
          task: `Add file-${name}`,
          actor: 'tester',
          options: { coder: 'sleepy', model: 'mock/pass' },
        });
        ids.push(submitted.jobId);
      }
      const workers = ['w1', 'w2'].map((name) =>
        queue.machine(name).startWorker(['--id', name, '--concurrency', '2']),
      );
      await waitFor(
        () => {
          const failed = workers.find((worker) => worker.output().includes(' failed: '));
          if (failed !== undefined) throw new Error(`a job failed:\n${failed.output()}`);
          return ids.every((id) => landedJobs(queue).includes(id));
        },
        150_000,
        () => workers.map((worker) => worker.output()).join('\n'),
      );
      expect(landedJobs(queue).sort()).toEqual([...ids].sort());
      for (const worker of workers) worker.child.kill('SIGTERM');
      expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);
    }, 240_000);
  },
);

if (POSTGRES_BIN === undefined || REDIS_SERVER === undefined) {
  describe('snodo worker on PostgreSQL', () => {
    it.skip(
      POSTGRES_BIN === undefined ? POSTGRES_SKIP_REASON : 'redis-server is not installed',
      () => undefined,
    );
  });
}
