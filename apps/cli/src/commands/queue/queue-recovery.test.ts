import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openQueueConnection, submitTask } from '@snodo/queue';
import { afterEach, describe, expect, it } from 'vitest';
import {
  coderProcesses,
  createQueueFixture,
  ESCALATING_PROTOCOL,
  landedJobs,
  type QueueFixture,
  REDIS_SERVER,
  REDIS_SKIP_REASON,
  type WorkerProcess,
  waitFor,
} from './queue-test-fixture.js';

// Escalation, cancellation, a worker killed mid-job and a Redis restart, each against real processes: the
// built CLI as workers, a real redis-server, a bare repository as the shared remote.
describe.skipIf(REDIS_SERVER === undefined)('queue jobs survive what machines do', () => {
  let fixture: QueueFixture | undefined;
  afterEach(async () => {
    await fixture?.cleanup();
    fixture = undefined;
  });

  const submit = (queue: QueueFixture, cwd: string, task: string, model = 'mock/pass') =>
    submitTask({
      connection: openQueueConnection(queue.redis.url),
      cwd,
      task,
      actor: 'tester',
      options: { coder: 'sleepy', model },
    }).then((result) => result.jobId);
  const noFailure = (workers: readonly WorkerProcess[]) => {
    const failed = workers.find((worker) => / failed: /.test(worker.output()));
    if (failed !== undefined) throw new Error(`a job failed:\n${failed.output()}`);
  };

  it('an escalated job holds no worker, and an approval from another machine lands it', async () => {
    fixture = await createQueueFixture(ESCALATING_PROTOCOL);
    const queue = fixture;
    const submitter = queue.machine('submitter');
    const worker = queue.machine('w1').startWorker(['--id', 'w1']);
    const escalated = await submit(queue, submitter.clone, 'Add file-esc', 'mock/warn');
    await waitFor(
      () => worker.output().includes(`${escalated} escalated`),
      90_000,
      () => worker.output(),
    );
    // The worker's one slot is free again: it takes the next job while the first waits for a human.
    const next = await submit(queue, submitter.clone, 'Add file-next');
    await waitFor(
      () => worker.output().includes(`${next} took`),
      30_000,
      () => worker.output(),
    );

    // Any machine reads where it stands: escalated, waiting for a human (wait exits 1, as an escalated run).
    const waiting = await submitter.snodo(['job', 'wait', escalated]);
    expect(waiting.exitCode, waiting.all).toBe(1);
    expect(waiting.stdout).toContain(`${escalated} halted (escalated)`);
    expect(waiting.stdout).toContain(`snodo task approve|reject ${escalated}`);

    const approver = queue.machine('approver');
    const approved = await approver.snodo(['task', 'approve', escalated, '--reason', 'read the diff']);
    expect(approved.exitCode, approved.all).toBe(0);
    expect(approved.stdout).toContain(`approved ${escalated}; its landing is queued`);
    await waitFor(
      () => landedJobs(queue).includes(escalated),
      60_000,
      () => worker.output(),
    );
    expect(queue.remoteGit(['ls-tree', '--name-only', 'main'])).toContain('esc.txt');
    const status = await submitter.snodo(['job', 'status', escalated]);
    expect(status.stdout).toContain(`${escalated} done (landed)`);
    expect(status.stdout).toMatch(/decision: {2}approve by tester at .*: read the diff/);
    // The decision is in the approving machine's own audit chain…
    const log = readFileSync(join(approver.clone, '.snodo', 'audit.log'), 'utf8');
    expect(log).toContain('"type":"queue-job-decide"');
    expect(log).toContain(`"job":"${escalated}"`);
    // …and a job is decided once.
    const twice = await approver.snodo(['task', 'reject', escalated, '--reason', 'changed my mind']);
    expect(twice.exitCode, twice.all).toBe(2);
    expect(twice.stderr).toContain('already approved by tester');
  }, 240_000);

  it('a cancel reaches the running coder: its process is gone and the job ends cancelled', async () => {
    fixture = await createQueueFixture();
    const queue = fixture;
    const submitter = queue.machine('submitter');
    const worker = queue.machine('w1').startWorker(['--id', 'w1']);
    const jobId = await submit(queue, submitter.clone, 'Add file-cc keep-sleeping');
    await waitFor(
      () => coderProcesses('cc').length > 0,
      90_000,
      () => worker.output(),
    );
    const cancelled = await submitter.snodo(['job', 'cancel', jobId]);
    expect(cancelled.exitCode, cancelled.all).toBe(0);
    expect(cancelled.stdout).toContain(`cancelled ${jobId} on w1`);
    await waitFor(() => coderProcesses('cc').length === 0, 15_000, 'the coder process to end');
    expect(worker.output()).toContain(`${jobId} cancelling (asked by tester)`);
    expect(landedJobs(queue)).not.toContain(jobId);
  }, 240_000);

  it('a worker SIGKILLed mid-job: another takes the job over after stall detection and it lands once', async () => {
    fixture = await createQueueFixture();
    const queue = fixture;
    const submitter = queue.machine('submitter');
    const doomed = queue.machine('w1').startWorker(['--id', 'w1']);
    const jobId = await submit(queue, submitter.clone, 'Add file-kk sleep-6');
    await waitFor(
      () => coderProcesses('kk').length > 0,
      90_000,
      () => doomed.output(),
    );
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const survivor = queue.machine('w2').startWorker(['--id', 'w2']);
    await waitFor(
      () => {
        noFailure([survivor]);
        return landedJobs(queue).includes(jobId);
      },
      120_000,
      () => survivor.output(),
    );
    expect(survivor.output()).toContain(`${jobId} took`);
    expect(landedJobs(queue).filter((id) => id === jobId)).toHaveLength(1);
  }, 240_000);

  it('Redis restarted mid-run (AOF on): no job is lost', async () => {
    fixture = await createQueueFixture();
    const queue = fixture;
    const submitter = queue.machine('submitter');
    const ids: string[] = [];
    for (const name of ['ra', 'rb', 'rc'])
      ids.push(await submit(queue, submitter.clone, `Add file-${name} sleep-4`));
    const worker = queue.machine('w1').startWorker(['--id', 'w1', '--concurrency', '2']);
    await waitFor(
      () => coderProcesses('ra').length + coderProcesses('rb').length > 0,
      90_000,
      () => worker.output(),
    );
    await queue.redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await queue.redis.start();
    await waitFor(
      () => ids.every((id) => landedJobs(queue).includes(id)),
      150_000,
      () => worker.output(),
    );
    expect(
      landedJobs(queue)
        .filter((id) => ids.includes(id))
        .sort(),
    ).toEqual([...ids].sort());
  }, 240_000);
});

if (REDIS_SERVER === undefined) {
  describe('queue jobs survive what machines do', () => {
    it.skip(REDIS_SKIP_REASON, () => undefined);
  });
}
