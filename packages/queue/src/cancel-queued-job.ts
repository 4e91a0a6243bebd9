import type { Job } from 'bullmq';
import { cancelQueuedLanding } from './cancel-queued-landing.js';
import { QueueJobStateError } from './errors.js';
import { findTaskJob } from './find-task-job.js';
import type { QueueConnection } from './queue-connection.js';
import { CANCEL_EVENT, TASK_QUEUE, type TaskJobData, type TaskJobResult } from './queue-jobs.js';

/** What `snodo job cancel` did to a queue job. */
export interface CancelQueuedJobResult {
  readonly jobId: string;
  /**
   * `removed`: it had not started; `signalled`: the worker running it was asked to abort it;
   * `landing-cancelled`: its run was done and its landing had not happened, and now will not (nothing of it
   * is on the base); `landing-unconfirmed`: the landing was asked not to happen, but the lander holding it
   * gave no answer within `waitMs` (`detail` says what to do).
   */
  readonly action: 'removed' | 'signalled' | 'landing-cancelled' | 'landing-unconfirmed';
  /** How the job ended, when it ended within `waitMs`. */
  readonly finished?: TaskJobResult;
  readonly detail?: string;
}

/** Whether a finished task job's landing is queued: it ended `landing`, or it escalated and was approved. */
function awaitsLanding(job: Job<TaskJobData, TaskJobResult>): boolean {
  const status = (job.returnvalue as TaskJobResult | null | undefined)?.status;
  return status === 'landing' || (status === 'escalated' && job.data.decision?.decision === 'approve');
}

function endedAs(job: Job<TaskJobData, TaskJobResult>, state: string): string {
  const result = job.returnvalue as TaskJobResult | null | undefined;
  return state === 'completed' && result ? `${state} (${result.status})` : state;
}

function notCancellable(job: Job<TaskJobData, TaskJobResult>, jobId: string): string {
  const result = job.returnvalue as TaskJobResult | null | undefined;
  if (result?.status === 'escalated' && job.data.decision === undefined) {
    return `an escalated job waits for a decision, not a cancel: snodo task reject ${jobId}`;
  }
  return 'only a waiting, running or landing job can be cancelled';
}

/**
 * Cancels a queue job from any machine. A job no worker holds yet is marked and removed; a running one is
 * marked (a worker that takes it over after a stall will not start it) and its worker is told through a
 * queue event to abort the run's signal, which stops the coder's process group. Waits up to `waitMs` for
 * the job to end. A job whose run is done but whose landing has not happened yet has its landing cancelled
 * (`cancelQueuedLanding`); one that has landed is refused, saying how to revert it.
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
    if (state === 'completed' && awaitsLanding(job)) {
      const outcome = await cancelQueuedLanding({
        connection,
        task: job,
        actor: options.actor,
        waitMs: options.waitMs ?? 30_000,
      });
      return { jobId, ...outcome };
    }
    if (state === 'completed' || state === 'failed') {
      throw new QueueJobStateError({ jobId, state: endedAs(job, state), wanted: notCancellable(job, jobId) });
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
