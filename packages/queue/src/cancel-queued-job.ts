import { QueueJobStateError } from './errors.js';
import { findTaskJob } from './find-task-job.js';
import type { QueueConnection } from './queue-connection.js';
import { CANCEL_EVENT, TASK_QUEUE, type TaskJobData, type TaskJobResult } from './queue-jobs.js';

/** What `snodo job cancel` did to a queue job. */
export interface CancelQueuedJobResult {
  readonly jobId: string;
  /** `removed`: it had not started; `signalled`: the worker running it was asked to abort it. */
  readonly action: 'removed' | 'signalled';
  /** How the job ended, when it ended within `waitMs`. */
  readonly finished?: TaskJobResult;
}

/**
 * Cancels a queue job from any machine. A job no worker holds yet is marked and removed; a running one is
 * marked (a worker that takes it over after a stall will not start it) and its worker is told through a
 * queue event to abort the run's signal, which stops the coder's process group. Waits up to `waitMs` for
 * the job to end.
 */
export async function cancelQueuedJob(options: {
  connection: QueueConnection;
  jobId: string;
  actor: string;
  waitMs?: number;
}): Promise<CancelQueuedJobResult> {
  const { connection, jobId } = options;
  const queue = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
  const events = connection.createQueueEvents(TASK_QUEUE);
  const producer = connection.createEventsProducer(TASK_QUEUE);
  try {
    const { job, state } = await findTaskJob(connection, queue, jobId);
    if (state === 'completed' || state === 'failed') {
      throw new QueueJobStateError({
        jobId,
        state,
        wanted: 'only a waiting or running job can be cancelled',
      });
    }
    await job.updateData({
      ...job.data,
      cancelRequested: { by: options.actor, at: new Date().toISOString() },
    });
    if (
      state === 'waiting' ||
      state === 'delayed' ||
      state === 'prioritized' ||
      state === 'waiting-children'
    ) {
      await job.remove();
      return { jobId, action: 'removed' };
    }
    await events.waitUntilReady();
    await producer.publishEvent({ eventName: CANCEL_EVENT, jobId, by: options.actor });
    const finished = await job
      .waitUntilFinished(events, options.waitMs ?? 30_000)
      .then((value) => value as TaskJobResult)
      .catch(() => undefined);
    return { jobId, action: 'signalled', ...(finished === undefined ? {} : { finished }) };
  } finally {
    await Promise.all([producer.close(), events.close(), queue.close()]);
  }
}
