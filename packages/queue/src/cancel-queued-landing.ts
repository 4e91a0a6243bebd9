import type { Job, QueueEvents } from 'bullmq';
import { QueueJobStateError } from './errors.js';
import type { LandingJobResult } from './land-queued-task.js';
import type { QueueConnection } from './queue-connection.js';
import {
  LANDING_QUEUE,
  type LandingJobData,
  landingJobId,
  type TaskJobData,
  type TaskJobResult,
} from './queue-jobs.js';
import { settledLanding } from './settled-landing.js';

/** How a cancel of a job waiting to land ended. */
export type LandingCancelOutcome =
  /** Its landing job is gone from the queue (removed, or its lander dropped it before the push): nothing landed. */
  | { readonly action: 'landing-cancelled' }
  /** Asked, but the train that may hold it had not finished within the wait: `detail` says what to look at. */
  | { readonly action: 'landing-unconfirmed'; readonly detail: string };

type Landing = Job<LandingJobData, LandingJobResult>;

const waitingStates = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * `snodo job cancel` of a task job that ended `landing` (or was approved): its task commit is on the remote
 * and its landing job waits in the landing queue. The task job is marked (`cancelRequested`: it reads as
 * cancelled once its landing job is gone), then the landing job is marked and, while it waits, removed.
 *
 * A waiting job may already ride in the merge train of the one landing job a lander holds (global
 * concurrency 1). That lander reads each car's job again right before its push and drops a removed one; to
 * report honestly, the jobs active before the mark and after the removal are waited for and their results
 * read (`landedRiders`): a train that had already made its final read (the window is the landing commits'
 * writing and the push, milliseconds) lands the job, and the cancel says so (`QUEUE_JOB_STATE`). A landing
 * job a lander holds itself is only marked, and its result awaited. NOTE: a whole train taken, built,
 * pushed and finished between the two reads of the active jobs (a few queue round trips) would go unseen;
 * a train's fetch and push alone take longer.
 */
export async function cancelQueuedLanding(options: {
  connection: QueueConnection;
  task: Job<TaskJobData, TaskJobResult>;
  actor: string;
  waitMs: number;
}): Promise<LandingCancelOutcome> {
  const { connection, task } = options;
  const jobId = task.id ?? '';
  const landings = connection.createQueue<LandingJobData, LandingJobResult>(LANDING_QUEUE);
  const events = connection.createQueueEvents(LANDING_QUEUE);
  try {
    const landing = await landings.getJob(landingJobId(jobId));
    if (landing === undefined || landing === null) {
      // An earlier cancel removed it (the queue keeps finished landing jobs; nothing else removes them).
      if (task.data.cancelRequested !== undefined) return { action: 'landing-cancelled' };
      throw new QueueJobStateError({
        jobId,
        state: `landing, but its landing job ${landingJobId(jobId)} is gone from the queue`,
        wanted: `nothing in the queue will land it; to see whether it landed: git log ${task.data.base} --grep "Snodo-Job: ${jobId}"`,
      });
    }
    const state = await landing.getState();
    if (refuseSettled(jobId, task.data.base, landing, state) === 'cancelled') {
      await landing.remove().catch(() => undefined);
      return { action: 'landing-cancelled' };
    }
    const mark = task.data.cancelRequested ?? { by: options.actor, at: new Date().toISOString() };
    await task.updateData({ ...task.data, cancelRequested: mark });
    await events.waitUntilReady();
    const activeBefore = await landings.getActive();
    await landing.updateData({ ...landing.data, cancelRequested: mark });
    // A job a lander holds is not removed (a finished one would lose the result that says whether it
    // landed; a locked one cannot be): its lander reads the mark.
    const held = activeBefore.some((job) => job.id === landing.id);
    const removed =
      !held &&
      waitingStates.has(state) &&
      (await landing.remove().then(
        () => true,
        () => false,
      ));
    if (!removed) return await awaitOwnLanding(jobId, task.data.base, landing, events, options.waitMs);
    const activeAfter = await landings.getActive();
    const trains = new Map(
      [...activeBefore, ...activeAfter].filter((job) => job.id !== landing.id).map((job) => [job.id, job]),
    );
    for (const train of trains.values()) {
      const result = await finished(train, events, options.waitMs);
      if (result === undefined) {
        return {
          action: 'landing-unconfirmed',
          detail:
            `the landing of ${train.data.jobId} (its train may hold ${jobId}) gave no result within the wait; its lander drops ` +
            `${jobId} unless it was already pushing. \`snodo job cancel ${jobId}\` again tells which`,
        };
      }
      const rider = result.landedRiders?.find((entry) => entry.jobId === jobId);
      if (rider !== undefined) throw tooLate(jobId, task.data.base, rider.commit, result.workerId);
    }
    return { action: 'landing-cancelled' };
  } finally {
    await Promise.all([events.close(), landings.close()]);
  }
}

/** The landing a lander holds: it reads the mark right before its push; its result says whether in time. */
async function awaitOwnLanding(
  jobId: string,
  base: string,
  landing: Landing,
  events: QueueEvents,
  waitMs: number,
): Promise<LandingCancelOutcome> {
  const result = await finished(landing, events, waitMs);
  if (result === undefined) {
    return {
      action: 'landing-unconfirmed',
      detail:
        `a lander is landing ${jobId} now (no result within the wait); it drops it unless it was already pushing. ` +
        `\`snodo job cancel ${jobId}\` again tells which`,
    };
  }
  if (result.status === 'landed') throw tooLate(jobId, base, result.commit, result.workerId);
  // Kept for a reason of its own (a conflict, a failed re-check) before it saw the mark: that stays.
  if (result.cancelled === undefined) throw keptAlready(jobId, result.reason);
  // Withdrawn for this cancel: nothing landed. Gone from the queue, the job reads cancelled.
  await landing.remove().catch(() => undefined);
  return { action: 'landing-cancelled' };
}

/**
 * Refuses a landing that has already ended (landed, kept for its own reason, failed), here or in another
 * job's train; `'cancelled'` when an earlier cancel's withdrawal ended it, `'pending'` while it may land.
 */
function refuseSettled(
  jobId: string,
  base: string,
  landing: Landing,
  state: string,
): 'cancelled' | 'pending' {
  if (state === 'failed') {
    throw new QueueJobStateError({
      jobId,
      state: `done, and its landing failed (${landing.failedReason})`,
      wanted: 'the queue will not try to land it again, so there is nothing to cancel',
    });
  }
  const settled = settledLanding(landing, state);
  if (settled === undefined) return 'pending';
  const { result, workerId } = settled;
  if (settled.cancelled !== undefined) return 'cancelled';
  if (result.status === 'landed') {
    throw new QueueJobStateError({
      jobId,
      state: `landed on ${base} as ${result.commit.slice(0, 12)}${workerId === undefined ? '' : ` by ${workerId}`}`,
      wanted: revertHint(base, result.commit),
    });
  }
  throw keptAlready(jobId, result.reason);
}

function keptAlready(jobId: string, reason: string): QueueJobStateError {
  return new QueueJobStateError({
    jobId,
    state: `done, and its lander kept it without landing it (${reason})`,
    wanted: 'there is nothing to cancel: it will not land',
  });
}

function tooLate(jobId: string, base: string, commit: string, workerId: string): QueueJobStateError {
  return new QueueJobStateError({
    jobId,
    state: `landed on ${base} as ${commit.slice(0, 12)} by ${workerId}: its lander was already pushing it when the cancel came`,
    wanted: revertHint(base, commit),
  });
}

function revertHint(base: string, commit: string): string {
  return `a landed job cannot be cancelled; to undo it, revert its landing commit on ${base}: git revert -m 1 ${commit}`;
}

/** The job's result once it has finished (within `waitMs`); `undefined` while it runs or when it failed. */
async function finished(
  job: Landing,
  events: QueueEvents,
  waitMs: number,
): Promise<LandingJobResult | undefined> {
  return job
    .waitUntilFinished(events, waitMs)
    .then((value) => value as LandingJobResult)
    .catch(() => undefined);
}
