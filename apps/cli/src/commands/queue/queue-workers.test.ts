import { openQueueConnection, submitTask } from '@snodo/queue';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createQueueFixture,
  type QueueFixture,
  REDIS_SERVER,
  REDIS_SKIP_REASON,
  waitFor,
} from './queue-test-fixture.js';

// Real redis-server on 127.0.0.1, a bare repository as the shared remote, worker processes of the built CLI.
describe.skipIf(REDIS_SERVER === undefined)('snodo submit and snodo worker on Redis', () => {
  let fixture: QueueFixture | undefined;
  afterEach(async () => {
    await fixture?.cleanup();
    fixture = undefined;
  });

  it('3 workers × 2 slots land 12 tasks, each once, on the remote base', async () => {
    fixture = await createQueueFixture();
    const submitter = fixture.machine('submitter');
    const names = Array.from({ length: 12 }, (_, index) => `t${index}`);
    // One submit through the binary (and its retry); the other eleven through the same library call, since
    // each CLI start costs seconds on a loaded machine.
    const first = await submitter.snodo(['submit', 'Add file-t0', '--coder', 'sleepy', '-m', 'mock/pass']);
    expect(first.exitCode, first.all).toBe(0);
    const again = await submitter.snodo(['submit', 'Add file-t0', '--coder', 'sleepy', '-m', 'mock/pass']);
    expect(again.exitCode, again.all).toBe(0);
    expect(again.stdout.trim()).toBe(first.stdout.trim());
    expect(again.stderr).toContain('already queued');
    const ids = [first.stdout.trim()];
    const connection = openQueueConnection(fixture.redis.url);
    for (const name of names.slice(1)) {
      const submitted = await submitTask({
        connection,
        cwd: submitter.clone,
        task: `Add file-${name}`,
        actor: 'tester',
        options: { coder: 'sleepy', model: 'mock/pass' },
      });
      ids.push(submitted.jobId);
    }
    expect(new Set(ids).size).toBe(12);

    const workers = ['w1', 'w2', 'w3'].map((name) =>
      fixture!.machine(name).startWorker(['--concurrency', '2', '--id', name]),
    );
    // Distinct jobs: a job landed in another's merge train says so twice (in the train, and when taken).
    const landedCount = () =>
      new Set(
        workers.flatMap((worker) =>
          [...worker.output().matchAll(/ (\S+) landed /g)].map((match) => match[1]),
        ),
      ).size;
    await waitFor(
      () => {
        const failed = workers.find((worker) => worker.output().includes(' failed: '));
        if (failed !== undefined) throw new Error(`a job failed:\n${failed.output()}`);
        return landedCount() >= 12;
      },
      140_000,
      () => `12 landings:\n${workers.map((worker) => worker.output()).join('\n')}`,
    );

    const firstParent = fixture.remoteGit(['log', '--first-parent', '--format=%H%x00%B%x01', 'main']);
    const landings = firstParent
      .split('\x01')
      .map((entry) => /Snodo-Job: (\S+)/.exec(entry)?.[1])
      .filter((id) => id !== undefined);
    expect(landings.sort()).toEqual([...ids].sort());
    const tree = fixture.remoteGit(['ls-tree', '--name-only', 'main']).split('\n');
    for (const name of names) expect(tree).toContain(`${name}.txt`);
    // Every worker took part, and each prints what it is doing.
    for (const worker of workers) expect(worker.output()).toMatch(/took "Add file-t\d+"/);
    // The submitting machine follows a job by its id alone: wait exits as a landed run does, status names
    // the landing commit that is on the remote's base.
    const waited = await submitter.snodo(['job', 'wait', ids[0] as string]);
    expect(waited.exitCode, waited.all).toBe(0);
    expect(waited.stdout).toContain(`${ids[0]} done (landed): Landed on main as`);
    const status = await submitter.snodo(['job', 'status', ids[1] as string, '--json']);
    expect(status.exitCode, status.all).toBe(0);
    const view = JSON.parse(status.stdout) as { status: string; landedCommit: string; task: string };
    expect(view).toMatchObject({ status: 'done', task: 'Add file-t1' });
    expect(firstParent).toContain(view.landedCommit);

    // Every landing is anchored in its lander's chain, and every chain verifies against the registered keys.
    const auditor = fixture.machine('auditor');
    const verified = await auditor.snodo(['audit', 'verify', '--remote', 'origin', '--base', 'main']);
    expect(verified.exitCode, verified.all).toBe(0);

    // SIGTERM: stop taking jobs, finish, exit 0.
    for (const worker of workers) worker.child.kill('SIGTERM');
    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0, 0]);
    for (const worker of workers) expect(worker.output()).toContain('stopped');
  }, 170_000);
});

// Said once, by name, on a machine without redis-server; nothing is reported skipped where it runs.
if (REDIS_SERVER === undefined) {
  describe('snodo submit and snodo worker on Redis', () => {
    it.skip(REDIS_SKIP_REASON, () => undefined);
  });
}
