import type { Job, Queue } from 'bullmq';
import type { LandingJobData } from './queue-jobs.js';

/** How many landings a lander takes in one train when `queue.landing_batch` is not set. */
export const DEFAULT_LANDING_BATCH = 8;

/**
 * The landing jobs waiting behind `leader` that can ride in its merge train: the same base and the same
 * mode (one re-check runs the mode's gates on the train's last tree), not already landed by another train
 * nor marked cancelled, oldest first, at most `batch - 1`. They stay waiting in the queue: if this lander
 * dies mid-train, each is still landed on its own; once the train settles one, its data says how
 * (`landedInTrain`) and taking it returns that at once.
 */
export async function landingRiders(
  landings: Queue<LandingJobData>,
  leader: Job<LandingJobData>,
  batch: number,
): Promise<Job<LandingJobData>[]> {
  if (batch <= 1) return [];
  // Oldest first (asc), a little past the bound: some may not fit this train (another base, another mode).
  const waiting = await landings.getWaiting(0, batch * 4 - 1);
  const riders: Job<LandingJobData>[] = [];
  for (const job of waiting) {
    if (riders.length >= batch - 1) break;
    if (job === undefined || job.id === leader.id || job.data.landedInTrain !== undefined) continue;
    if (job.data.cancelRequested !== undefined) continue;
    if (job.data.base !== leader.data.base || job.data.mode !== leader.data.mode) continue;
    if (riders.some((rider) => rider.data.jobId === job.data.jobId)) continue;
    riders.push(job);
  }
  return riders;
}
