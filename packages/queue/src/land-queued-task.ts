import { homedir } from 'node:os';
import {
  type LandingTrainRequest,
  landTrainOnRemote,
  type RemoteLandingResult,
  recheckCommandGates,
} from '@snodo/core';
import type { Job } from 'bullmq';
import { landingRiders } from './landing-riders.js';
import type { LandingJobData } from './queue-jobs.js';
import { type Withdrawal, withdrawnLandings } from './withdrawn-landings.js';
import type { WorkerContext } from './worker-context.js';

/** A landing job's return value: the lander's result and who landed it (and in which train). */
export type LandingJobResult = RemoteLandingResult & {
  readonly workerId: string;
  readonly trainId?: string;
  /** Set when `snodo job cancel` withdrew this job before it was pushed: nothing of it landed. */
  readonly cancelled?: { readonly by: string; readonly at: string };
  /**
   * The riders this job's train landed. A cancel that removed a rider while the train was in flight reads
   * it here to tell "withdrawn in time" from "it was already being pushed" (the removed job cannot say).
   */
  readonly landedRiders?: ReadonlyArray<{ readonly jobId: string; readonly commit: string }>;
};

/**
 * One landing job, on whichever worker's landing slot is free (the landing queue's global concurrency is 1).
 * The lander takes the landing jobs waiting behind it too (a merge train, at most `queue.landing_batch`) and
 * lands them all with core's `landTrainOnRemote` from this worker's clone: one fetch, the landing commits
 * built one on another, the job's mode's deterministic gates re-run once on the last tree when the base
 * moved (`recheckCommandGates`), one compare-and-swap push with this worker's chain snapshot. Each rider's
 * outcome goes into its job's data, so taking it later returns that at once; a rider the train could not
 * settle (the train stopped as a whole) is landed on its own when its turn comes. Right before each push the
 * cars' jobs are read again: one `snodo job cancel` removed or marked meanwhile is dropped, not pushed.
 */
export async function landQueuedTask(
  context: WorkerContext,
  job: Job<LandingJobData, LandingJobResult>,
  signal: AbortSignal | undefined,
): Promise<LandingJobResult> {
  const { data } = job;
  const log = (jobId: string, message: string) => context.log(jobId, message);
  if (data.landedInTrain !== undefined) {
    const { trainId, workerId, result } = data.landedInTrain;
    log(data.jobId, `${describe(result)} (in train ${trainId ?? '-'} of ${workerId})`);
    return { ...result, workerId, ...(trainId === undefined ? {} : { trainId }) };
  }
  if (data.cancelRequested !== undefined) {
    const { by, at } = data.cancelRequested;
    log(data.jobId, `not landed: cancelled by ${by} at ${at}`);
    return {
      status: 'kept',
      reason: `cancelled by ${by} at ${at} before it landed`,
      attempts: 0,
      workerId: context.workerId,
      cancelled: data.cancelRequested,
    };
  }
  const withdrawals = new Map<string, Withdrawal>();
  const result = await context.cloneLock.run(async () => {
    const riders = await landingRiders(context.landings, job, context.landingBatch);
    const train = [job, ...riders];
    for (const car of train) {
      const approved = car.data.approvedBy ? ` (approved by ${car.data.approvedBy})` : '';
      const with_ = riders.length > 0 ? ` in a train of ${train.length}` : '';
      log(car.data.jobId, `landing on ${context.remote}/${data.base}${with_}${approved}`);
    }
    const landed = await landTrainOnRemote({
      clone: context.clone,
      remote: context.remote,
      base: data.base,
      cars: train.map((car) => ({
        jobId: car.data.jobId,
        taskCommit: car.data.taskCommit,
        taskBase: car.data.taskBase,
      })),
      workerId: context.workerId,
      snodoHome: context.snodoHome,
      ...(signal === undefined ? {} : { signal }),
      ...recheckOf(context, train, signal, log),
      // Each car's job read again right before the push: a cancel that removed a rider, or marked this job,
      // since they were collected is honoured. NOTE: a cancel after that read (while the landing commits
      // are written and pushed, milliseconds) comes too late; `landedRiders` lets it find out honestly.
      withdrawn: withdrawnLandings(context.landings, withdrawals),
    });
    if (landed.landedAloneBecause !== undefined) {
      log(data.jobId, `the train's re-check failed (${landed.landedAloneBecause}); landed each alone`);
    }
    const landedRiders: Array<{ jobId: string; commit: string }> = [];
    for (const [index, rider] of riders.entries()) {
      const car = landed.cars[index + 1];
      if (withdrawals.has(rider.data.jobId)) {
        log(rider.data.jobId, `dropped from the train before its push: ${withdrawnBy(withdrawals, rider)}`);
        continue;
      }
      if (car === undefined || !car.settled) continue;
      if (car.result.status === 'landed') {
        landedRiders.push({ jobId: rider.data.jobId, commit: car.result.commit });
      }
      log(rider.data.jobId, describe(car.result));
      // Not recorded (the job was removed meanwhile, the queue hiccupped): taking it lands it on its own,
      // which finds it already in the base.
      await rider
        .updateData({
          ...rider.data,
          landedInTrain: { trainId: landed.trainId, workerId: context.workerId, result: car.result },
        })
        .catch((error: unknown) =>
          log(
            rider.data.jobId,
            `could not record the train's outcome: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    }
    const [own] = landed.cars;
    if (own === undefined) throw new Error(`the landing train of ${data.jobId} returned no result for it`);
    const cancelled = withdrawals.get(data.jobId);
    return {
      ...own.result,
      ...(landed.trainId === undefined ? {} : { trainId: landed.trainId }),
      ...(cancelled === undefined ? {} : { cancelled }),
      ...(landedRiders.length === 0 ? {} : { landedRiders }),
    };
  });
  log(data.jobId, describe(result));
  return { ...result, workerId: context.workerId };
}

function withdrawnBy(withdrawals: ReadonlyMap<string, Withdrawal>, job: Job<LandingJobData>): string {
  const mark = withdrawals.get(job.data.jobId);
  return mark === undefined ? 'its landing job was removed (cancelled)' : `cancelled by ${mark.by}`;
}

function describe(result: RemoteLandingResult): string {
  if (result.status === 'kept') return `kept: ${result.reason}`;
  const retries = result.rejectedPushes > 0 ? `, ${result.rejectedPushes} rejected push(es) recovered` : '';
  return `landed ${result.commit.slice(0, 12)}${result.alreadyLanded ? ' (already landed)' : ''}${retries}`;
}

/**
 * The re-check `landTrainOnRemote` calls when the base moved: the post-execute command gates and
 * constraints of the mode the train's jobs ran in (riders share the leader's mode), in a throw-away
 * sandboxed workspace of this clone, once on the train's last tree. Jobs enqueued without a mode (by an
 * older worker) get none, and say so.
 */
function recheckOf(
  context: WorkerContext,
  train: readonly Job<LandingJobData, unknown>[],
  signal: AbortSignal | undefined,
  log: (jobId: string, message: string) => void,
): Pick<LandingTrainRequest, 'recheck'> {
  const [leader] = train;
  const mode = leader?.data.mode;
  if (leader === undefined || mode === undefined) {
    for (const car of train) {
      log(
        car.data.jobId,
        'no mode recorded for this job: if the base moved, only "the change still applies" is checked',
      );
    }
    return {};
  }
  const byJob = new Map(train.map((car) => [car.data.jobId, car.data]));
  return {
    recheck: async ({ commit, base, jobIds }) => {
      const [first = leader.data.jobId] = jobIds;
      log(
        first,
        `${leader.data.base} moved to ${base.slice(0, 12)}: re-running the ${mode} mode's command gates` +
          (jobIds.length > 1 ? ` on the train of ${jobIds.length}` : ''),
      );
      // The re-check reads the clone (objects, the base's protocol) and works in its own workspace: the
      // worker's task jobs may fetch and push meanwhile; the lock is back before the train touches refs.
      const verdict = await context.cloneLock.released(() =>
        recheckCommandGates({
          clone: context.clone,
          snodoHome: context.snodoHome,
          mode,
          // The workspace is named after the first car; no built-in constraint reads the task text.
          jobId: first,
          task: jobIds.map((jobId) => byJob.get(jobId)?.task ?? '').join('\n\n'),
          env: context.env,
          homeDirectory: context.homeDirectory ?? homedir(),
          baseName: leader.data.base,
          signal,
          commit,
          base,
        }),
      );
      log(first, verdict.ok ? 're-check passed' : `re-check failed: ${verdict.reason}`);
      return verdict;
    },
  };
}
