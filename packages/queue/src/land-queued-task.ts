import { homedir } from 'node:os';
import {
  landOnRemote,
  type RemoteLandingRequest,
  type RemoteLandingResult,
  recheckCommandGates,
} from '@snodo/core';
import type { Job } from 'bullmq';
import type { LandingJobData } from './queue-jobs.js';
import type { WorkerContext } from './worker-context.js';

/** A landing job's return value: the lander's result and who landed it. */
export type LandingJobResult = RemoteLandingResult & { readonly workerId: string };

/**
 * One landing job, on whichever worker's landing slot is free (the landing queue's global concurrency is 1):
 * bring the task commit into this worker's clone from `refs/snodo/jobs/<jobId>`, then land it on the shared
 * remote with core's `landOnRemote` (a compare-and-swap push of the base, retried a bounded number of
 * times, with this worker's chain snapshot in the same atomic push). When the base moved since the task
 * ran, the merged result must pass the job's mode's deterministic gates again (`recheckCommandGates`).
 */
export async function landQueuedTask(
  context: WorkerContext,
  job: Job<LandingJobData, LandingJobResult>,
  signal: AbortSignal | undefined,
): Promise<LandingJobResult> {
  const { data } = job;
  const log = (message: string) => context.log(data.jobId, message);
  log(
    `landing on ${context.remote}/${data.base}${data.approvedBy ? ` (approved by ${data.approvedBy})` : ''}`,
  );
  // landOnRemote brings the task commit from refs/snodo/jobs/<job> on the remote when this clone lacks it
  // (another worker ran the job), into a copy the repository guard leaves out, and removes the copy after.
  const result = await context.cloneLock.run(async () => {
    return landOnRemote({
      clone: context.clone,
      remote: context.remote,
      base: data.base,
      taskCommit: data.taskCommit,
      taskBase: data.taskBase,
      jobId: data.jobId,
      workerId: context.workerId,
      snodoHome: context.snodoHome,
      ...(signal === undefined ? {} : { signal }),
      ...recheckOf(context, data, signal, log),
    });
  });
  if (result.status === 'landed') {
    const retries = result.rejectedPushes > 0 ? `, ${result.rejectedPushes} rejected push(es) recovered` : '';
    log(
      `landed ${result.commit.slice(0, 12)} on ${data.base}${result.alreadyLanded ? ' (already landed)' : ''}${retries}`,
    );
  } else {
    log(`kept: ${result.reason}`);
  }
  return { ...result, workerId: context.workerId };
}

/**
 * The re-check `landOnRemote` calls on a moved base: the post-execute command gates and constraints of the
 * mode the job ran in, in a throw-away sandboxed workspace of this clone. A landing enqueued without a
 * mode (by an older worker) gets none, and says so.
 */
function recheckOf(
  context: WorkerContext,
  data: LandingJobData,
  signal: AbortSignal | undefined,
  log: (message: string) => void,
): Pick<RemoteLandingRequest, 'recheck'> {
  const { mode } = data;
  if (mode === undefined) {
    log('no mode recorded for this job: if the base moved, only "the change still applies" is checked');
    return {};
  }
  return {
    recheck: async (candidate) => {
      log(
        `${data.base} moved to ${candidate.base.slice(0, 12)}: re-running the ${mode} mode's command gates`,
      );
      const verdict = await recheckCommandGates({
        clone: context.clone,
        snodoHome: context.snodoHome,
        mode,
        jobId: data.jobId,
        task: data.task,
        env: context.env,
        homeDirectory: context.homeDirectory ?? homedir(),
        baseName: data.base,
        signal,
        ...candidate,
      });
      log(verdict.ok ? 're-check passed' : `re-check failed: ${verdict.reason}`);
      return verdict;
    },
  };
}
