import type { Job } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { cancelQueuedJob } from './cancel-queued-job.js';
import { enqueueLanding } from './enqueue-landing.js';
import type { LandingJobResult } from './land-queued-task.js';
import type { QueueConnection } from './queue-connection.js';
import {
  LANDING_QUEUE,
  type LandingJobData,
  TASK_QUEUE,
  type TaskJobData,
  type TaskJobResult,
} from './queue-jobs.js';
import { queuedJobEnded, readQueuedJob, waitForQueuedJob } from './read-queued-job.js';
import { REDIS_SERVER } from './testing/redis-server.js';
import { useRedisTestbed } from './testing/redis-testbed.js';

const submission = (task: string): TaskJobData => ({
  task,
  base: 'main',
  baseCommit: 'a'.repeat(40),
  protocolCommit: 'a'.repeat(40),
  protocolBlob: 'b'.repeat(40),
  options: {},
  submittedBy: 'tester',
  submittedAt: '2026-12-03T10:00:00.000Z',
});

const ran = (status: TaskJobResult['status'], outcome: string, summary: string): TaskJobResult => ({
  status,
  outcome,
  summary,
  workerId: 'w1',
  localJobId: 'j_local12345',
  taskCommit: 'c'.repeat(40),
  taskBase: 'a'.repeat(40),
});

describe.skipIf(REDIS_SERVER === undefined)('a queue job as snodo job status|wait read it', () => {
  const testbed = useRedisTestbed('snodo-read-job');
  let connection: QueueConnection;
  beforeAll(() => {
    ({ connection } = testbed);
  });

  /** Adds task jobs, then lets a real BullMQ worker end each with the result `outcomes` gives it. */
  async function endTasks(
    jobs: Record<string, TaskJobData>,
    outcomes: Record<string, TaskJobResult | Error>,
  ): Promise<void> {
    const queue = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
    for (const [jobId, data] of Object.entries(jobs)) await queue.add('task', data, { jobId });
    const ended = new Set<string>();
    const worker = connection.createWorker<TaskJobData, TaskJobResult>(
      TASK_QUEUE,
      async (job: Job<TaskJobData, TaskJobResult>) => {
        const outcome = outcomes[job.id ?? ''];
        ended.add(job.id ?? '');
        if (outcome === undefined || outcome instanceof Error) throw outcome ?? new Error('no outcome');
        return outcome;
      },
      { concurrency: 4 },
    );
    while (ended.size < Object.keys(jobs).length) await new Promise((resolve) => setTimeout(resolve, 50));
    await worker.close();
    await queue.close();
  }

  it('says where a job is and how it ended: waiting, landing, landed, kept, escalated, rejected, failed', {
    timeout: 60_000,
  }, async () => {
    const tasks = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
    const landings = connection.createQueue<LandingJobData, LandingJobResult>(LANDING_QUEUE);
    try {
      await tasks.add('task', submission('Not taken yet'), { jobId: 'q_waiting' });
      const waiting = await readQueuedJob({ connection, jobId: 'q_waiting' });
      expect(waiting).toMatchObject({ status: 'waiting', task: 'Not taken yet', submittedBy: 'tester' });
      expect(queuedJobEnded(waiting)).toBe(false);
      await tasks.remove('q_waiting');

      const escalatedResult = ran('escalated', 'escalated', 'A judge warned.');
      await endTasks(
        {
          q_landing: submission('Lands later'),
          q_landed: submission('Lands now'),
          q_kept: submission('Conflicts'),
          q_escalated: submission('Needs a human'),
          q_rejected: { ...submission('Rejected'), decision: { decision: 'reject', by: 'ann', at: 'now' } },
          q_failed: submission('Breaks'),
        },
        {
          q_landing: ran('landing', 'branch_kept', 'Gates passed.'),
          q_landed: ran('landing', 'branch_kept', 'Gates passed.'),
          q_kept: ran('landing', 'branch_kept', 'Gates passed.'),
          q_escalated: escalatedResult,
          q_rejected: escalatedResult,
          q_failed: new Error('the remote is unreachable'),
        },
      );
      const land = (jobId: string) =>
        enqueueLanding(landings, {
          jobId,
          base: 'main',
          taskCommit: 'c'.repeat(40),
          taskBase: 'a'.repeat(40),
        });
      for (const jobId of ['q_landing', 'q_landed', 'q_kept']) await land(jobId);
      // Landing waits: the task job has completed, the job has not.
      expect(await readQueuedJob({ connection, jobId: 'q_landing' })).toMatchObject({
        status: 'landing',
        summary: 'Waiting in the landing queue.',
        workerId: 'w1',
        localJobId: 'j_local12345',
      });

      const lander = connection.createWorker<LandingJobData, LandingJobResult>(
        LANDING_QUEUE,
        async (job: Job<LandingJobData, LandingJobResult>) =>
          job.data.jobId === 'q_kept'
            ? { status: 'kept', reason: 'merge conflict in README.md', attempts: 1, workerId: 'w2' }
            : { status: 'landed', commit: 'd'.repeat(40), attempts: 1, rejectedPushes: 0, workerId: 'w2' },
        {},
      );
      const [landed, kept] = await Promise.all([
        waitForQueuedJob({ connection, jobId: 'q_landed', pollMs: 50, timeoutMs: 20_000 }),
        waitForQueuedJob({ connection, jobId: 'q_kept', pollMs: 50, timeoutMs: 20_000 }),
      ]);
      await lander.close();
      expect(landed).toMatchObject({
        status: 'done',
        outcome: 'landed',
        landedCommit: 'd'.repeat(40),
        landedBy: 'w2',
        summary: `Landed on main as ${'d'.repeat(12)}.`,
      });
      expect(kept).toMatchObject({ status: 'halted', outcome: 'kept' });
      expect(kept.summary).toContain('merge conflict in README.md');

      const escalated = await readQueuedJob({ connection, jobId: 'q_escalated' });
      expect(escalated).toMatchObject({ status: 'halted', outcome: 'escalated' });
      expect(escalated.summary).toContain('snodo task approve|reject q_escalated');
      expect(queuedJobEnded(escalated)).toBe(true);
      expect(await readQueuedJob({ connection, jobId: 'q_rejected' })).toMatchObject({
        status: 'rejected',
        summary: 'Rejected by ann.',
      });
      const failed = await readQueuedJob({ connection, jobId: 'q_failed' });
      expect(failed).toMatchObject({ status: 'failed' });
      expect(failed.summary).toContain('the remote is unreachable');
    } finally {
      await Promise.all([tasks.close(), landings.close()]);
    }
  });

  it('a wait on a job cancelled before any worker took it ends cancelled; a failed run carries its error code', {
    timeout: 30_000,
  }, async () => {
    const tasks = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
    try {
      await tasks.add('task', submission('Cancelled while waited for'), { jobId: 'q_cancel_waited' });
      const waiting = waitForQueuedJob({
        connection,
        jobId: 'q_cancel_waited',
        pollMs: 50,
        timeoutMs: 20_000,
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await cancelQueuedJob({ connection, jobId: 'q_cancel_waited', actor: 'ann' })).toMatchObject({
        action: 'removed',
      });
      expect(await waiting).toMatchObject({ status: 'cancelled', task: 'Cancelled while waited for' });

      await endTasks(
        { q_bad_model: submission('Needs a model') },
        {
          q_bad_model: {
            ...ran('failed', 'failed', 'No judging model.'),
            error: { code: 'MODEL_REQUIRED' },
          },
        },
      );
      expect(await readQueuedJob({ connection, jobId: 'q_bad_model' })).toMatchObject({
        status: 'failed',
        error: { code: 'MODEL_REQUIRED' },
      });
    } finally {
      await tasks.close();
    }
  });

  it('waits no longer than its timeout for a job that does not end, and names an unknown id', async () => {
    const tasks = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
    try {
      await tasks.add('task', submission('Nobody takes it'), { jobId: 'q_stuck' });
      const view = await waitForQueuedJob({ connection, jobId: 'q_stuck', pollMs: 50, timeoutMs: 300 });
      expect(view.status).toBe('waiting');
      expect(queuedJobEnded(view)).toBe(false);
      await expect(readQueuedJob({ connection, jobId: 'q_unknown' })).rejects.toMatchObject({
        code: 'QUEUE_JOB_NOT_FOUND',
      });
    } finally {
      await tasks.close();
    }
  });
});
