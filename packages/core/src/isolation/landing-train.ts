import type { LockWait } from '@snodo/foundation';
import { type CarOutcome, type LandingCar, type LandingScope, landCars } from './land-cars.js';
import type { LandTaskBranchResult } from './land-task-branch.js';
import { withRepositoryMergeLock } from './repository-merge-lock.js';

/** A car waiting at the station, with how to tell its caller. */
interface Boarding {
  readonly car: LandingCar;
  /** The caller's bounded wait for the merge lock, when this car leads a train. */
  readonly lockTimeoutMs: number | undefined;
  readonly onLockWait: ((wait: LockWait) => void) | undefined;
  readonly settle: (outcome: CarOutcome) => void;
}

/** The landings of this process waiting to go onto one base of one repository. */
interface Station {
  readonly scope: LandingScope;
  readonly waiting: Boarding[];
}

/** At most this many cars in one hold of the merge lock; later ones take the next. */
const maxCarsPerTrain = 32;

// Keyed by git common directory and base ref: the merge lock is per repository, and one base moves per train.
const stations = new Map<string, Station>();

/**
 * Lands `car` on the base of `scope` as part of a train: the landings of this process waiting for the same
 * repository's merge lock go together, in arrival order, in one hold of the lock (`landCars`): while one
 * train lands, the cars that arrive meanwhile gather for the next. Landings of other processes still take
 * the lock one train at a time. A car alone is exactly a single landing.
 *
 * Why: eight runs landing at once on one repository took the lock eight times, each for a status, a
 * worktree listing, a ref update, a read-tree and a status again (issue 14's "8 concurrent runs" figure);
 * a train does those once.
 */
export function boardLandingTrain(
  scope: LandingScope,
  car: LandingCar,
  wait: { lockTimeoutMs?: number | undefined; onLockWait?: ((wait: LockWait) => void) | undefined },
): Promise<LandTaskBranchResult> {
  return new Promise((resolve, reject) => {
    const boarding: Boarding = {
      car,
      lockTimeoutMs: wait.lockTimeoutMs,
      onLockWait: wait.onLockWait,
      settle: (outcome) => ('result' in outcome ? resolve(outcome.result) : reject(outcome.error)),
    };
    const key = `${scope.gitCommonDirectory}\0${scope.baseRef}`;
    const station = stations.get(key);
    if (station !== undefined) {
      station.waiting.push(boarding);
      return;
    }
    const opened: Station = { scope, waiting: [boarding] };
    stations.set(key, opened);
    void runTrains(opened).finally(() => stations.delete(key));
  });
}

/** Takes the lock and lands the waiting cars, a train per hold, until nobody waits. */
async function runTrains(station: Station): Promise<void> {
  for (let lead = station.waiting[0]; lead !== undefined; lead = station.waiting[0]) {
    let boarded: Boarding[] = [];
    try {
      await withRepositoryMergeLock(
        {
          gitCommonDirectory: station.scope.gitCommonDirectory,
          jobId: lead.car.jobId,
          ...(lead.lockTimeoutMs ? { timeoutMs: lead.lockTimeoutMs } : {}),
          // Everyone waiting for this train is told who holds the lock, not only the car that asked for it.
          onWait: (wait) => {
            for (const boarding of station.waiting) boarding.onLockWait?.(wait);
          },
        },
        async () => {
          boarded = station.waiting.splice(0, maxCarsPerTrain);
          const outcomes = await landCars(
            station.scope,
            boarded.map((boarding) => boarding.car),
          );
          for (const [index, boarding] of boarded.entries()) {
            boarding.settle(outcomes[index] ?? { error: new Error('landing ended without a result') });
          }
        },
      );
    } catch (error) {
      // The lock could not be had (a timeout names its holder) or landing failed outside any car: the cars
      // of this train are told; those that came later try again with the next train.
      const told = boarded.length > 0 ? boarded : station.waiting.splice(0, maxCarsPerTrain);
      for (const boarding of told) boarding.settle({ error: error as Error });
    }
  }
}
