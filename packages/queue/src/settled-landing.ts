import type { Job } from 'bullmq';
import type { LandingJobResult } from './land-queued-task.js';
import type { LandingJobData } from './queue-jobs.js';

/** How a landing job ended, wherever that is recorded. */
export interface SettledLanding {
  readonly result: LandingJobResult | NonNullable<LandingJobData['landedInTrain']>['result'];
  /** The worker that landed or kept it. */
  readonly workerId: string | undefined;
  /** Set when its lander kept it because of a cancel (`snodo job cancel`), not for a reason of its own. */
  readonly cancelled: LandingJobResult['cancelled'];
}

/**
 * The outcome of a landing job in `state`: its return value once it completed, or, while it still waits, the
 * outcome another job's merge train recorded in its data; `undefined` while it may still land.
 */
export function settledLanding(
  landing: Job<LandingJobData, LandingJobResult>,
  state: string,
): SettledLanding | undefined {
  if (state === 'completed' && landing.returnvalue !== null && landing.returnvalue !== undefined) {
    const { returnvalue } = landing;
    return { result: returnvalue, workerId: returnvalue.workerId, cancelled: returnvalue.cancelled };
  }
  const train = landing.data.landedInTrain;
  return train === undefined
    ? undefined
    : { result: train.result, workerId: train.workerId, cancelled: undefined };
}
