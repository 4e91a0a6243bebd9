import { describeLockHolder, LockTimeoutError, type LockWait, readLockHolder } from '@snodo/foundation';
import { type CarOutcome, type LandingCar, type LandingScope, landCars } from './land-cars.js';
import type { LandTaskBranchResult } from './land-task-branch.js';
import {
  defaultMergeLockTimeoutMs,
  mergeLockPath,
  mergeLockPurpose,
  mergeLockTimeoutError,
  withRepositoryMergeLock,
} from './repository-merge-lock.js';

/** A car waiting at the station, with how to tell its caller. */
interface Boarding {
  readonly car: LandingCar;
  /** When its own bounded wait for the merge lock runs out (`lockTimeoutMs` from its boarding). */
  readonly deadline: number;
  /** Tells its caller how it ended; the first call counts. */
  readonly settle: (outcome: CarOutcome) => void;
}

/** The landings of this process waiting to go onto one base of one repository. */
interface Station {
  readonly scope: LandingScope;
  readonly waiting: Boarding[];
}

/** At most this many cars in one hold of the merge lock; later ones take the next. */
const maxCarsPerTrain = 32;
/**
 * The pause between two trains of one station. Releasing the lock and taking it again at once would starve
 * other processes' landings, which look for it every few tens of milliseconds; meanwhile more cars gather.
 */
const pauseBetweenTrainsMs = 50;
/** How long a car waits before it is told who holds the lock (as `withFileLock`'s `waitNoticeMs`). */
const waitNoticeMs = 1_000;

// Keyed by git common directory and base ref: the merge lock is per repository, and one base moves per train.
const stations = new Map<string, Station>();

/**
 * Lands `car` on the base of `scope` as part of a train: the landings of this process waiting for the same
 * repository's merge lock go together, in arrival order, in one hold of the lock (`landCars`): while one
 * train lands, the cars that arrive meanwhile gather for the next. Landings of other processes still take
 * the lock one train at a time. A car alone is exactly a single landing. Each car's wait is its own, whoever
 * leads: bounded by its `lockTimeoutMs`, and after a second it is told who holds the lock (`onLockWait`).
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
    const timeoutMs = wait.lockTimeoutMs || defaultMergeLockTimeoutMs;
    const key = `${scope.gitCommonDirectory}\0${scope.baseRef}`;
    let station = stations.get(key);
    const opening = station === undefined;
    station ??= { scope, waiting: [] };
    const waiting = station.waiting;
    const boardedAt = Date.now();
    // Its own bound: a car still waiting when it runs out leaves the station with the lock's timeout error.
    const timer = setTimeout(() => {
      const index = waiting.indexOf(boarding);
      if (index === -1) return;
      waiting.splice(index, 1);
      boarding.settle({ error: lockTimeout(scope) });
    }, timeoutMs);
    timer.unref();
    // Told once, after a second of waiting, who holds the lock: whether another process or this one's train.
    const notice = setTimeout(() => {
      if (!waiting.includes(boarding) || wait.onLockWait === undefined) return;
      const lockPath = mergeLockPath(scope.gitCommonDirectory);
      const holder = readLockHolder(lockPath);
      wait.onLockWait({
        lockPath,
        purpose: mergeLockPurpose,
        holder,
        holderText: describeLockHolder(holder),
        waitedMs: Date.now() - boardedAt,
      });
    }, waitNoticeMs);
    notice.unref();
    const boarding: Boarding = {
      car,
      deadline: boardedAt + timeoutMs,
      settle: (outcome) => {
        clearTimeout(timer);
        clearTimeout(notice);
        if ('result' in outcome) resolve(outcome.result);
        else reject(outcome.error);
      },
    };
    waiting.push(boarding);
    if (opening) {
      stations.set(key, station);
      void runTrains(key, station);
    }
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
          // As long as the longest-waiting car may wait; each car's own timer tells it when its bound passes.
          timeoutMs: Math.max(
            1,
            Math.max(...station.waiting.map((boarding) => boarding.deadline)) - Date.now(),
          ),
        },
        async () => {
          boarded = station.waiting.splice(0, maxCarsPerTrain);
          if (boarded.length === 0) return;
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
      // The lock could not be had. After a timeout (the error names the holder) the cars whose bound has
      // passed are told and any that boarded later with a longer one wait on; any other failure ends every
      // wait, or the station would ask for the lock again and again.
      const timedOut = LockTimeoutError.isInstance((error as { cause?: unknown }).cause);
      const now = Date.now();
      const told = station.waiting.filter((boarding) => !timedOut || boarding.deadline <= now);
      for (const boarding of told) {
        station.waiting.splice(station.waiting.indexOf(boarding), 1);
        boarding.settle({ error: error as Error });
      }
    }
  }
}

/** The error of a car whose own wait ran out: what `withRepositoryMergeLock` throws, naming the holder. */
function lockTimeout(scope: LandingScope): Error {
  const lockPath = mergeLockPath(scope.gitCommonDirectory);
  return mergeLockTimeoutError(
    new LockTimeoutError({
      lockPath,
      purpose: mergeLockPurpose,
      holder: describeLockHolder(readLockHolder(lockPath)),
    }),
  );
}
