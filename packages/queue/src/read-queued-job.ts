import { setTimeout as sleep } from 'node:timers/promises';
import type { JobStatus } from '@snodo/core';
import type { Job } from 'bullmq';
import { QueueJobNotFoundError } from './errors.js';
import { findTaskJob } from './find-task-job.js';
import type { LandingJobResult } from './land-queued-task.js';
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
import { settledLanding } from './settled-landing.js';

/**
 * Where a queue job is, read from the shared state alone (any machine with `queue.url` can ask):
 * - `waiting`: no worker has taken it; `running`: a worker runs its pipeline; `landing`: its task commit is
 *   on the remote and its landing waits for (or is in) the landing queue;
 * - how it ended, in the words of a local job: `done` (landed on the base, or nothing to change), `halted`
 *   (escalated and waiting for `snodo task approve|reject`, kept by the lander, stopped by a gate),
 *   `failed`, `cancelled`, `rejected` (a local job's `JobStatus`, so exit codes map the same way).
 */
export type QueuedJobStatus = 'waiting' | 'landing' | JobStatus;

/** One queue job as `snodo job status` and `snodo job wait` show it. */
export interface QueuedJobView {
  readonly jobId: string;
  readonly status: QueuedJobStatus;
  /** What happened in a word: `landed`, `kept`, `escalated`, or the run's own outcome. */
  readonly outcome?: string;
  /** One sentence: the run's summary, the lander's reason, or where the job waits. */
  readonly summary: string;
  readonly task: string;
  readonly base: string;
  readonly baseCommit: string;
  readonly submittedBy: string;
  readonly submittedAt: string;
  /** The worker that ran the pipeline, and its own id for the job (`snodo task show <id>` in its clone). */
  readonly workerId?: string;
  readonly localJobId?: string;
  /** The task commit pushed to `refs/snodo/jobs/<job>`. */
  readonly taskCommit?: string;
  /** The landing commit on the base, and the worker that landed it. */
  readonly landedCommit?: string;
  readonly landedBy?: string;
  readonly decision?: QueuedJobDecision;
  readonly cancelRequested?: TaskJobData['cancelRequested'];
  /** A failed run's error code, so `snodo job wait` exits as the run would have (2 bad input, else 3). */
  readonly error?: { readonly code: string };
}

/** Whether a view is final: `snodo job wait` returns once it is. */
export function queuedJobEnded(view: QueuedJobView): boolean {
  return view.status !== 'waiting' && view.status !== 'running' && view.status !== 'landing';
}

/** Reads one queue job (`QUEUE_JOB_NOT_FOUND` for an id the queue does not hold). */
export async function readQueuedJob(options: {
  connection: QueueConnection;
  jobId: string;
}): Promise<QueuedJobView> {
  return withJobQueues(options.connection, (read) => read(options.jobId));
}

/**
 * Polls a queue job until it has ended (`queuedJobEnded`) or `timeoutMs` passed; returns the last view
 * either way, so the caller tells "ended" from "still going" by `queuedJobEnded`.
 */
export async function waitForQueuedJob(options: {
  connection: QueueConnection;
  jobId: string;
  timeoutMs?: number | undefined;
  pollMs?: number | undefined;
}): Promise<QueuedJobView> {
  const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
  // One pair of queue objects (and their Redis connections) for the whole wait, not one per poll.
  return withJobQueues(options.connection, async (read) => {
    let last: QueuedJobView | undefined;
    for (;;) {
      let view: QueuedJobView;
      try {
        view = await read(options.jobId);
      } catch (error) {
        // `snodo job cancel` removes a job no worker has taken (so its id can be submitted again): seen
        // waiting a moment ago and gone now, it was cancelled.
        if (last === undefined || !QueueJobNotFoundError.isInstance(error)) throw error;
        return {
          ...last,
          status: 'cancelled',
          outcome: 'cancelled',
          summary: 'Cancelled before any worker took it: it left the queue.',
        };
      }
      if (queuedJobEnded(view) || (deadline !== undefined && Date.now() >= deadline)) return view;
      last = view;
      await sleep(options.pollMs ?? 500);
    }
  });
}

/** Opens the task and landing queues, gives `work` a reader of one job's view, and closes them after. */
async function withJobQueues<T>(
  connection: QueueConnection,
  work: (read: (jobId: string) => Promise<QueuedJobView>) => Promise<T>,
): Promise<T> {
  const tasks = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
  const landings = connection.createQueue<LandingJobData, LandingJobResult>(LANDING_QUEUE);
  try {
    return await work(async (jobId) => {
      const { job, state } = await findTaskJob(connection, tasks, jobId);
      return viewOf(job, state, () => landings.getJob(landingJobId(jobId)));
    });
  } finally {
    await Promise.all([tasks.close(), landings.close()]);
  }
}

async function viewOf(
  job: Job<TaskJobData, TaskJobResult>,
  state: string,
  landingJob: () => Promise<Job<LandingJobData, LandingJobResult> | undefined>,
): Promise<QueuedJobView> {
  const { data } = job;
  const base = {
    jobId: job.id ?? '',
    task: data.task,
    base: data.base,
    baseCommit: data.baseCommit,
    submittedBy: data.submittedBy,
    submittedAt: data.submittedAt,
    ...(data.decision === undefined ? {} : { decision: data.decision }),
    ...(data.cancelRequested === undefined ? {} : { cancelRequested: data.cancelRequested }),
  };
  if (state === 'active') return { ...base, status: 'running', summary: 'A worker is running it.' };
  if (state === 'failed') {
    return { ...base, status: 'failed', summary: job.failedReason || 'The worker gave up on it.' };
  }
  if (state !== 'completed' || job.returnvalue === null || job.returnvalue === undefined) {
    return { ...base, status: 'waiting', summary: 'Waiting for a worker.' };
  }
  const result = job.returnvalue;
  const ran = {
    ...base,
    workerId: result.workerId,
    localJobId: result.localJobId,
    ...(result.taskCommit === undefined ? {} : { taskCommit: result.taskCommit }),
  };
  if (result.status === 'escalated') {
    if (data.decision?.decision === 'reject') {
      return { ...ran, status: 'rejected', outcome: 'rejected', summary: rejection(data.decision) };
    }
    if (data.decision?.decision !== 'approve') {
      return {
        ...ran,
        status: 'halted',
        outcome: 'escalated',
        summary: `${result.summary} Waiting for snodo task approve|reject ${base.jobId}.`,
      };
    }
  } else if (result.status !== 'landing') {
    return {
      ...ran,
      status: result.status,
      outcome: result.outcome,
      summary: result.summary,
      ...(result.error === undefined ? {} : { error: result.error }),
    };
  }
  return landingView(ran, await landingJob());
}

function rejection(decision: QueuedJobDecision): string {
  return `Rejected by ${decision.by}${decision.reason === undefined ? '' : `: ${decision.reason}`}.`;
}

/** A job whose task commit waits to land: the landing job says whether it has, and how. */
async function landingView(
  ran: Omit<QueuedJobView, 'status' | 'summary'>,
  landing: Job<LandingJobData, LandingJobResult> | undefined,
): Promise<QueuedJobView> {
  if (landing === undefined) {
    if (ran.cancelRequested !== undefined) {
      return {
        ...ran,
        status: 'cancelled',
        outcome: 'cancelled',
        summary: `Cancelled by ${ran.cancelRequested.by} before it landed.`,
      };
    }
    if (ran.decision?.decision === 'approve') {
      return {
        ...ran,
        status: 'halted',
        outcome: 'approved',
        summary:
          `Approved by ${ran.decision.by}, but no landing was queued (the approval was interrupted): ` +
          `snodo task approve ${ran.jobId} again queues it.`,
      };
    }
    return { ...ran, status: 'landing', summary: 'Its landing is being queued.' };
  }
  const state = await landing.getState();
  if (state === 'failed') {
    return { ...ran, status: 'failed', summary: `The landing failed: ${landing.failedReason}` };
  }
  const outcome = settledLanding(landing, state);
  if (outcome === undefined) {
    return {
      ...ran,
      status: 'landing',
      summary: state === 'active' ? 'Landing now.' : 'Waiting in the landing queue.',
    };
  }
  const settled = outcome.result;
  const by = outcome.workerId === undefined ? {} : { landedBy: outcome.workerId };
  if (outcome.cancelled !== undefined) {
    // Its lander dropped it for the cancel (it re-reads each car right before its push).
    return {
      ...ran,
      ...by,
      status: 'cancelled',
      outcome: 'cancelled',
      summary: `Cancelled by ${outcome.cancelled.by} before it landed.`,
    };
  }
  if (settled.status === 'kept') {
    return {
      ...ran,
      ...by,
      status: 'halted',
      outcome: 'kept',
      summary: `Kept, not landed: ${settled.reason}`,
    };
  }
  return {
    ...ran,
    ...by,
    status: 'done',
    outcome: 'landed',
    landedCommit: settled.commit,
    summary: `Landed on ${ran.base} as ${settled.commit.slice(0, 12)}.`,
  };
}
