import type { LandingTrainRequest } from '@snodo/core';
import type { Queue } from 'bullmq';
import { type LandingJobData, landingJobId } from './queue-jobs.js';

/** Who withdrew a car, when the job's data said (`undefined`: its landing job was gone). */
export type Withdrawal = LandingJobData['cancelRequested'];

/**
 * The train's `withdrawn` hook: right before each push, each car's landing job is read again from the
 * queue, and the ones `snodo job cancel` removed (a waiting rider) or marked (the job this lander holds)
 * are named, so core keeps them instead of pushing them. `withdrawals` collects them for the caller.
 */
export function withdrawnLandings(
  landings: Queue<LandingJobData>,
  withdrawals: Map<string, Withdrawal>,
): NonNullable<LandingTrainRequest['withdrawn']> {
  return async (jobIds) => {
    const jobs = await Promise.all(jobIds.map((jobId) => landings.getJob(landingJobId(jobId))));
    const answer: Array<{ jobId: string; reason: string }> = [];
    for (const [index, jobId] of jobIds.entries()) {
      const job = jobs[index];
      const mark = job?.data.cancelRequested;
      if (job === undefined || job === null) {
        withdrawals.set(jobId, undefined);
        answer.push({ jobId, reason: 'its landing job was removed from the queue (snodo job cancel)' });
      } else if (mark !== undefined) {
        withdrawals.set(jobId, mark);
        answer.push({ jobId, reason: `cancelled by ${mark.by} at ${mark.at}` });
      }
    }
    return answer;
  };
}
