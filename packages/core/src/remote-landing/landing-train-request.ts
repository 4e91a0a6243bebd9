// A merge train: several landings taken together by one lander, built one on another on one fetch of the
// base, re-checked once on the last tree and pushed once. Plain data both ways, like a single landing.

import type {
  RecheckGateRecord,
  RemoteLandingRequest,
  RemoteLandingResult,
} from './remote-landing-request.js';

/** One task of a train: what a single landing's request names per job. */
export interface LandingCar {
  /** The snodo job, named in its own landing commit's `Snodo-Job` trailer and its own audit events. */
  readonly jobId: string;
  /** The task's result commit (on the remote at `refs/snodo/jobs/<jobId>` when the clone lacks it). */
  readonly taskCommit: string;
  /** The base commit the task started from. */
  readonly taskBase: string;
}

/** The verdict of a train's re-check, as `RemoteLandingRequest.recheck` gives it. */
export type TrainRecheckVerdict = Awaited<ReturnType<NonNullable<RemoteLandingRequest['recheck']>>>;

/** What a lander asks to land together: the single-landing fields that do not name a job, and the cars. */
export interface LandingTrainRequest
  extends Omit<RemoteLandingRequest, 'jobId' | 'taskCommit' | 'taskBase' | 'recheck'> {
  /** In landing order; at most 100, each job once. A train of one is a single landing. */
  readonly cars: readonly LandingCar[];
  /**
   * Re-runs the deterministic gates on the train's last candidate (every car's change merged, in order, on
   * the moved base): once per train. `jobIds` are the cars in it. A failed re-check of a train of several
   * lands each car alone (each re-checked on its own), so one bad change never holds back the good ones.
   */
  readonly recheck?: (candidate: {
    commit: string;
    base: string;
    jobIds: readonly string[];
  }) => Promise<TrainRecheckVerdict>;
  /**
   * Asked right before each push is built, after the re-check (the narrowest window the lander has), with
   * the jobs about to land: returns those no longer wanted (a cancelled job) and why. Each is kept, settled,
   * with that reason, and the train is rebuilt without it on the same fetch (re-checked again when needed),
   * since the later cars' trees included its change. A throw stops the train before anything moved. A job
   * withdrawn after this answer (while the landing commits are written and pushed) still lands: the caller
   * must read the result, not assume the withdrawal took.
   */
  readonly withdrawn?: (
    jobIds: readonly string[],
  ) => Promise<ReadonlyArray<{ readonly jobId: string; readonly reason: string }>>;
}

/** How one car of a train ended. */
export interface TrainCarResult {
  readonly jobId: string;
  readonly result: RemoteLandingResult;
  /**
   * `true` when the verdict is about this car (it landed, was already landed, conflicts, failed its own
   * re-check, or its commit is missing); `false` when the train as a whole stopped (cancelled, the base or
   * the lander's identity in question, pushes refused): landing the car again may end otherwise.
   */
  readonly settled: boolean;
  /** The re-check's verdicts that kept it, when a re-check did. */
  readonly recheckGates?: readonly RecheckGateRecord[];
}

/** How a train ended: one result per car, in the order given. */
export interface LandingTrainResult {
  /** Named in every car's `remote-landing-*` events (`train.id`) when the train had more than one car. */
  readonly trainId?: string;
  readonly cars: readonly TrainCarResult[];
  /** Set when the train's re-check failed and its cars were landed one by one: the train's reason. */
  readonly landedAloneBecause?: string;
}
