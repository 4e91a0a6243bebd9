import { beforeAll, describe, expect, it } from 'vitest';
import { decideQueuedJob } from './decide-queued-job.js';
import type { QueueConnection } from './queue-connection.js';
import { LANDING_QUEUE, TASK_QUEUE, type TaskJobData, type TaskJobResult } from './queue-jobs.js';
import { readQueuedJob } from './read-queued-job.js';
import { REDIS_SERVER } from './testing/redis-server.js';
import { useRedisTestbed } from './testing/redis-testbed.js';

const data: TaskJobData = {
  task: 'Add a file',
  base: 'main',
  baseCommit: 'a'.repeat(40),
  protocolCommit: 'a'.repeat(40),
  protocolBlob: 'b'.repeat(40),
  options: { maxCostUsd: 0.01 },
  submittedBy: 'tester',
  submittedAt: '2026-12-02T00:00:00.000Z',
};

describe.skipIf(REDIS_SERVER === undefined)('decideQueuedJob on Redis', () => {
  const testbed = useRedisTestbed('snodo-decide');
  let connection: QueueConnection;
  beforeAll(() => {
    ({ connection } = testbed);
  });

  /** A task job that ended the way `result` says, as a worker's processor would have returned it. */
  async function endedJob(jobId: string, result: TaskJobResult): Promise<void> {
    const queue = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
    await queue.add('task', data, { jobId, removeOnComplete: false, removeOnFail: false });
    const done = new Promise<void>((resolve) => {
      const worker = connection.createWorker<TaskJobData, TaskJobResult>(TASK_QUEUE, async () => result, {
        concurrency: 1,
      });
      worker.on('completed', () => void worker.close().then(resolve));
    });
    await done;
    await queue.close();
  }

  it('refuses to approve a job stopped at its budget (its work was never judged) and queues no landing; ' +
    'rejecting it works', { timeout: 30_000 }, async () => {
    await endedJob('q_budget', {
      status: 'escalated',
      outcome: 'escalated',
      summary: 'Stopped at the budget (0.01 USD).',
      workerId: 'w1',
      localJobId: 'j_local',
      taskCommit: 'c'.repeat(40),
      taskBase: data.baseCommit,
      stoppedAtBudget: true,
      mode: 'producer',
    });

    await expect(
      decideQueuedJob({ connection, jobId: 'q_budget', decision: 'approve', actor: 'reviewer' }),
    ).rejects.toMatchObject({
      code: 'QUEUE_JOB_STATE',
      message: expect.stringMatching(/stopped at its budget.*submit the task again with a higher --max-cost/),
    });
    const landings = connection.createQueue(LANDING_QUEUE);
    try {
      expect(await landings.getJob('land-q_budget')).toBeUndefined();
    } finally {
      await landings.close();
    }

    const rejected = await decideQueuedJob({
      connection,
      jobId: 'q_budget',
      decision: 'reject',
      actor: 'reviewer',
      reason: 'over budget',
    });
    expect(rejected).toMatchObject({
      landingQueued: false,
      decision: { decision: 'reject', by: 'reviewer' },
    });
  });

  it('an approval recorded but stopped before its landing was queued is finished by approving again; ' +
    'job status says so meanwhile, and a job is still decided once', { timeout: 30_000 }, async () => {
    const approved = { decision: 'approve' as const, by: 'ann', at: '2026-12-02T01:00:00.000Z' };
    const queue = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
    try {
      await endedJob('q_interrupted', {
        status: 'escalated',
        outcome: 'escalated',
        summary: 'A judge warned.',
        workerId: 'w1',
        localJobId: 'j_local',
        taskCommit: 'c'.repeat(40),
        taskBase: data.baseCommit,
        mode: 'producer',
      });
      // What an approval that died between its two writes leaves: the decision, no landing job.
      const job = await queue.getJob('q_interrupted');
      await job?.updateData({ ...data, decision: approved });

      const stuck = await readQueuedJob({ connection, jobId: 'q_interrupted' });
      expect(stuck).toMatchObject({ status: 'halted', outcome: 'approved' });
      expect(stuck.summary).toContain('snodo task approve q_interrupted again queues it');
      await expect(
        decideQueuedJob({ connection, jobId: 'q_interrupted', decision: 'reject', actor: 'bob' }),
      ).rejects.toMatchObject({
        code: 'QUEUE_JOB_STATE',
        message: expect.stringContaining('already approved by ann'),
      });

      const finished = await decideQueuedJob({
        connection,
        jobId: 'q_interrupted',
        decision: 'approve',
        actor: 'bob',
      });
      expect(finished).toMatchObject({ landingQueued: true, decision: approved });
      expect(await readQueuedJob({ connection, jobId: 'q_interrupted' })).toMatchObject({
        status: 'landing',
        summary: 'Waiting in the landing queue.',
      });
      await expect(
        decideQueuedJob({ connection, jobId: 'q_interrupted', decision: 'approve', actor: 'bob' }),
      ).rejects.toMatchObject({ code: 'QUEUE_JOB_STATE', message: expect.stringContaining('decided once') });
    } finally {
      await queue.close();
    }
  });
});
