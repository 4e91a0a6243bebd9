import type { Queue } from 'bullmq';
import { type LandingJobData, landingJobId } from './queue-jobs.js';

/**
 * Adds a task's landing to the landing queue. The id is derived from the task job's, and landing jobs are
 * kept after they finish, so a task job retried after a stall (or approved twice) lands once.
 */
export async function enqueueLanding(landings: Queue<LandingJobData>, data: LandingJobData): Promise<void> {
  await landings.add('land', data, {
    jobId: landingJobId(data.jobId),
    removeOnComplete: false,
    removeOnFail: false,
    // A landing that threw (the remote unreachable, a crash) is tried again; a kept one returns normally.
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
  });
}
