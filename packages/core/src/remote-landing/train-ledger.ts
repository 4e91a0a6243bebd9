import type { AuditEvent } from '@snodo/audit';
import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import type { AuditEventData } from '../audit-trail/audit-event-vocabulary.js';
import type { AuditTrail } from '../audit-trail/audit-trail.js';
import type {
  LandingCar,
  LandingTrainRequest,
  LandingTrainResult,
  TrainCarResult,
} from './landing-train-request.js';
import type { RecheckGateRecord } from './remote-landing-request.js';

/** Records a train's landing events in the lander's chain and gathers each car's result. */
export interface TrainLedger {
  /** Appends the car's `remote-landing-start` (what its landing commit's trailer names). */
  start(
    car: LandingCar,
    index: number,
    data: {
      seenBase: string;
      tree: string;
      parents: readonly string[];
      attempt: number;
      recheck: AuditEventData<'remote-landing-start'>['recheck'];
      recheckGates?: readonly RecheckGateRecord[];
    },
  ): Promise<AuditEvent>;
  /** The car is kept: `remote-landing-end` (kept), and its result. `settled` defaults to `true`. */
  keep(
    car: LandingCar,
    attempt: number,
    reason: string,
    extra?: {
      conflictedFiles?: readonly string[];
      recheckGates?: readonly RecheckGateRecord[];
      settled?: boolean;
    },
  ): Promise<void>;
  /** The whole train stopped before it pushed: every car given is kept, unsettled. */
  keepAll(cars: readonly LandingCar[], attempt: number, reason: string): Promise<void>;
  landed(car: LandingCar, attempt: number, commit: string, rejectedPushes: number): Promise<void>;
  /** An earlier try had landed it (no event: nothing was done). */
  alreadyLanded(car: LandingCar, commit: string, attempts: number, rejectedPushes: number): void;
  /** The push lost a race: `remote-landing-end` (rejected); the train is rebuilt and tried again. */
  rejected(car: LandingCar, attempt: number, detail: string): Promise<void>;
  /** Syncs the log and returns the results in the cars' order (`alone`: results of cars landed one by one). */
  finish(alone?: readonly TrainCarResult[], landedAloneBecause?: string): Promise<LandingTrainResult>;
}

export function trainLedger(options: {
  trail: AuditTrail;
  request: LandingTrainRequest;
  baseRef: string;
  trainId: string | undefined;
}): TrainLedger {
  const { trail, request, baseRef, trainId } = options;
  const results = new Map<string, TrainCarResult>();
  const common = { worker: request.workerId, remote: request.remote, base_ref: baseRef };
  const trainOf = (car: LandingCar) =>
    trainId === undefined
      ? {}
      : {
          train: {
            id: trainId,
            position: request.cars.indexOf(car) + 1,
            size: request.cars.length,
          },
        };
  const end = (
    car: LandingCar,
    attempt: number,
    outcome: AuditEventData<'remote-landing-end'>['outcome'],
    extra: {
      commit?: string;
      reason?: string;
      conflictedFiles?: readonly string[];
      recheckGates?: readonly RecheckGateRecord[];
    },
  ) =>
    appendAuditEvent(
      trail,
      'remote-landing-end',
      {
        ...common,
        attempt,
        outcome,
        commit: extra.commit,
        reason: extra.reason,
        conflicted_files: extra.conflictedFiles,
        ...(extra.recheckGates === undefined ? {} : { recheck_gates: extra.recheckGates }),
        ...trainOf(car),
      },
      { job: car.jobId },
    );
  const ledger: TrainLedger = {
    start: (car, _index, data) =>
      appendAuditEvent(
        trail,
        'remote-landing-start',
        {
          ...common,
          base_commit: data.seenBase,
          task_commit: car.taskCommit,
          task_base: car.taskBase,
          tree: data.tree,
          parents: [...data.parents],
          attempt: data.attempt,
          recheck: data.recheck,
          ...(data.recheckGates === undefined ? {} : { recheck_gates: data.recheckGates }),
          ...trainOf(car),
        },
        { job: car.jobId },
      ),
    async keep(car, attempt, reason, extra = {}) {
      await end(car, attempt, 'kept', { reason, ...extra });
      results.set(car.jobId, {
        jobId: car.jobId,
        result: {
          status: 'kept',
          reason,
          attempts: attempt,
          ...(extra.conflictedFiles ? { conflictedFiles: extra.conflictedFiles } : {}),
        },
        settled: extra.settled ?? true,
        ...(extra.recheckGates ? { recheckGates: extra.recheckGates } : {}),
      });
    },
    async keepAll(cars, attempt, reason) {
      for (const car of cars) await ledger.keep(car, attempt, reason, { settled: false });
    },
    async landed(car, attempt, commit, rejectedPushes) {
      await end(car, attempt, 'landed', { commit });
      results.set(car.jobId, {
        jobId: car.jobId,
        result: { status: 'landed', commit, attempts: attempt, rejectedPushes },
        settled: true,
      });
    },
    alreadyLanded(car, commit, attempts, rejectedPushes) {
      results.set(car.jobId, {
        jobId: car.jobId,
        result: { status: 'landed', commit, attempts, rejectedPushes, alreadyLanded: true },
        settled: true,
      });
    },
    async rejected(car, attempt, detail) {
      await end(car, attempt, 'rejected', { reason: detail });
    },
    async finish(alone = [], landedAloneBecause) {
      for (const result of alone) results.set(result.jobId, result);
      await trail.sync();
      const cars = request.cars.map((car) => {
        const result = results.get(car.jobId);
        if (result === undefined)
          throw new Error(`the landing train ended without a result for ${car.jobId}`);
        return result;
      });
      return {
        ...(trainId === undefined ? {} : { trainId }),
        cars,
        ...(landedAloneBecause === undefined ? {} : { landedAloneBecause }),
      };
    },
  };
  return ledger;
}
