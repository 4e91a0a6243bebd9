import type { LockWait } from '@snodo/foundation';
import { type CarOutcome, type LandingCar, type LandingScope, landCars } from './land-cars.js';
import type { LandTaskBranchResult } from './land-task-branch.js';
import { withRepositoryMergeLock } from './repository-merge-lock.js';

/** A car waiting at the station, with how to tell its caller. */
interface Boarding {
  readonly car: LandingCar;
  /** When its own bounded wait for the merge lock runs out (`lockTimeoutMs` from its boarding). */
  readonly deadline: number;
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
/** How long a landing waits for the merge lock unless told otherwise (as `withRepositoryMergeLock`). */
const defaultLockTimeoutMs = 120_000;
/**
 * The pause between two trains of one station. Releasing the lock and taking it again at once would starve
 * other processes' landings, which look for it every few tens of milliseconds; meanwhile more cars gather.
 */
const pauseBetweenTrainsMs = 50;

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
      deadline: Date.now() + (wait.lockTimeoutMs || defaultLockTimeoutMs),
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
    void runTrains(key, opened);
  });
}

/**
 * Takes the lock and lands the waiting cars, a train per hold, until nobody waits. The station closes in
 * the same synchronous step that finds it empty, so a car boarding later opens a new one and is never left
 * in a station nobody runs.
 */
async function runTrains(key: string, station: Station): Promise<void> {
  for (let trains = 0; ; trains++) {
    if (trains > 0 && station.waiting.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, pauseBetweenTrainsMs));
    }
    const lead = station.waiting[0];
    if (lead === undefined) {
      stations.delete(key);
      return;
    }
    let boarded: Boarding[] = [];
    try {
      await withRepositoryMergeLock(
        {
          gitCommonDirectory: station.scope.gitCommonDirectory,
          jobId: lead.car.jobId,
          // Until the first waiting car's own wait runs out (cars may have been given different bounds).
          timeoutMs: Math.max(
            1,
            Math.min(...station.waiting.map((boarding) => boarding.deadline)) - Date.now(),
          ),
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
      if (boarded.length > 0) {
        // Landing failed outside any car: the cars of this train are told.
        for (const boarding of boarded) boarding.settle({ error: error as Error });
        continue;
      }
      // The lock could not be had: the shortest wait ran out (the error names the holder). Every car whose
      // own wait has run out by now is told; the others go on waiting, the oldest of them leading. An error
      // that is no timeout ends every wait, or the station would ask for the lock again and again.
      const now = Date.now();
      const expired = station.waiting.filter((boarding) => boarding.deadline <= now + pauseBetweenTrainsMs);
      const told = expired.length > 0 ? expired : station.waiting.slice();
      for (const boarding of told) {
        station.waiting.splice(station.waiting.indexOf(boarding), 1);
        boarding.settle({ error: error as Error });
      }
    }
  }
}
