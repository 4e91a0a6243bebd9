import { enqueueLanding } from './enqueue-landing.js';
import { QueueJobStateError } from './errors.js';
import { findTaskJob } from './find-task-job.js';
import type { QueueConnection } from './queue-connection.js';
import {
  LANDING_QUEUE,
  type LandingJobData,
  landingJobId,
  type QueuedJobDecision,
  TASK_QUEUE,
  type TaskJobData,
  type TaskJobResult,
} from './queue-jobs.js';

/** What `snodo task approve|reject` did to a queue job. */
export interface DecideQueuedJobResult {
  readonly jobId: string;
  readonly decision: QueuedJobDecision;
  /** `true` when an approval enqueued the landing. */
  readonly landingQueued: boolean;
  readonly result: TaskJobResult;
}

/**
 * A human decision on an escalated queue job, from any machine whose config reaches the queue: recorded in
 * the job's data (the shared state every machine reads), then `record` (the caller's local audit chain),
 * and for an approval the landing is enqueued — on the landing queue, so no worker was held while waiting.
 */
export async function decideQueuedJob(options: {
  connection: QueueConnection;
  jobId: string;
  decision: 'approve' | 'reject';
  actor: string;
  reason?: string | undefined;
  record?: (decision: QueuedJobDecision, result: TaskJobResult) => Promise<void>;
}): Promise<DecideQueuedJobResult> {
  const { connection, jobId } = options;
  const queue = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
  const landings = connection.createQueue<LandingJobData>(LANDING_QUEUE);
  try {
    const { job, state } = await findTaskJob(connection, queue, jobId);
    const result = job.returnvalue as TaskJobResult | null | undefined;
    if (state !== 'completed' || result?.status !== 'escalated') {
      const now = state === 'completed' && result ? `${state} (${result.status})` : state;
      throw new QueueJobStateError({
        jobId,
        state: now,
        wanted: 'only an escalated job waits for a decision',
      });
    }
    const earlier = job.data.decision;
    const interrupted =
      earlier?.decision === 'approve' &&
      options.decision === 'approve' &&
      !(await landings.getJob(landingJobId(jobId))) &&
      job.data.cancelRequested === undefined;
    if (earlier !== undefined && !interrupted) {
      throw new QueueJobStateError({
        jobId,
        state: `already ${earlier.decision === 'approve' ? 'approved' : 'rejected'} by ${earlier.by} at ${earlier.at}`,
        wanted: 'a job is decided once',
      });
    }
    if (options.decision === 'approve' && result.stoppedAtBudget === true) {
      throw new QueueJobStateError({
        jobId,
        state: 'stopped at its budget before the post-execute gates judged its work',
        wanted:
          'a queue job cannot go on under a raised cap yet: reject it, then submit the task again with a higher --max-cost or --max-tokens',
      });
    }
    if (options.decision === 'approve' && result.taskCommit === undefined) {
      throw new QueueJobStateError({
        jobId,
        state: 'escalated before its coder ran (there is no task commit to land)',
        wanted: 'submit the task again with the judges or policy that should let it run',
      });
    }
    // An approval recorded but stopped before its landing was queued (a crash, the queue unreachable) is
    // finished by approving again: the first decision stands, the landing is queued now.
    const decision: QueuedJobDecision = interrupted
      ? earlier
      : {
          decision: options.decision,
          by: options.actor,
          at: new Date().toISOString(),
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        };
    if (!interrupted) {
      await job.updateData({ ...job.data, decision });
      await options.record?.(decision, result);
    }
    let landingQueued = false;
    if (options.decision === 'approve' && result.taskCommit !== undefined) {
      await enqueueLanding(landings, {
        jobId,
        base: job.data.base,
        taskCommit: result.taskCommit,
        taskBase: result.taskBase,
        approvedBy: options.actor,
        task: job.data.task,
        ...(result.mode === undefined ? {} : { mode: result.mode }),
      });
      landingQueued = true;
    }
    return { jobId, decision, landingQueued, result };
  } finally {
    await Promise.all([landings.close(), queue.close()]);
  }
}
