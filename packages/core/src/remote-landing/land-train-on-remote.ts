import { randomBytes } from 'node:crypto';
import { auditLogPath } from '../audit-trail/audit-paths.js';
import { AuditTrail } from '../audit-trail/audit-trail.js';
import { loadOrCreateSigningKey } from '../audit-trail/signing-key-store.js';
import { RemoteLandingInvalidError } from '../errors.js';
import {
  commitTree,
  findGitCommonDirectory,
  findRepositoryRoot,
  git,
  isAncestor,
  resolveCommit,
  resolveCommits,
  resolveGitIdentity,
} from '../git/index.js';
import { landingMessage } from '../isolation/landing-message.js';
import { ensureRuntimeExclusions } from '../pipeline/runtime-exclusions.js';
import { SNODO_VERSION } from '../version.js';
import { AUDIT_ANCHOR_TRAILER_KEY, formatAuditAnchor } from './audit-trailer.js';
import { snapshotChain } from './chain-snapshot.js';
import { findLandingOfJob } from './find-landing-of-job.js';
import { landerIdentityProblem } from './lander-identity.js';
import type {
  LandingCar,
  LandingTrainRequest,
  LandingTrainResult,
  TrainCarResult,
} from './landing-train-request.js';
import {
  baseBranchName,
  jobResultRef,
  landingCopyPrefix,
  refComponentProblem,
  WORKER_KEYS_REF,
  workerAuditRef,
} from './remote-landing-refs.js';
import { fetchFromRemote, pushAtomically, requireRemote } from './remote-transfer.js';
import { buildTrainCandidates, type TrainCandidate, type TrainCandidates } from './train-candidates.js';
import { type TrainLedger, trainLedger } from './train-ledger.js';
import { type TrainRecheckOutcome, trainRecheck } from './train-recheck.js';

export type {
  LandingCar,
  LandingTrainRequest,
  LandingTrainResult,
  TrainCarResult,
} from './landing-train-request.js';

const defaultMaxAttempts = 5;
const maxCars = 100;
const objectName = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** The request checked before anything is fetched: names that go into refs, commit ids, the remote. */
async function checkTrainRequest(
  request: LandingTrainRequest,
): Promise<{ baseName: string; maxAttempts: number }> {
  const refuse = (what: string, value: string, problem: string): never => {
    throw new RemoteLandingInvalidError({ what, value, problem });
  };
  const base = baseBranchName(request.base);
  if ('problem' in base) refuse('The base branch', request.base, base.problem);
  const workerProblem = refComponentProblem(request.workerId);
  if (workerProblem !== undefined) refuse('The worker id', request.workerId, workerProblem);
  if (request.cars.length === 0 || request.cars.length > maxCars) {
    refuse('The train', `${request.cars.length} landings`, `give from 1 to ${maxCars} landings`);
  }
  const seen = new Set<string>();
  for (const car of request.cars) {
    const jobProblem = refComponentProblem(car.jobId);
    if (jobProblem !== undefined) refuse('The job id', car.jobId, jobProblem);
    if (seen.has(car.jobId)) refuse('The job id', car.jobId, 'a train lands each job once');
    seen.add(car.jobId);
    for (const [what, value] of [
      ['The task commit', car.taskCommit],
      ['The task base', car.taskBase],
    ] as const) {
      if (!objectName.test(value)) refuse(what, value, 'give the full commit id (40 or 64 hex digits)');
    }
  }
  const maxAttempts = request.maxAttempts ?? defaultMaxAttempts;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) {
    refuse('maxAttempts', String(request.maxAttempts), 'give a whole number from 1 to 100');
  }
  await requireRemote(request.clone, request.remote);
  return { baseName: (base as { name: string }).name, maxAttempts };
}

/**
 * Lands several task commits on the shared remote's base at once, from the lander's own clone (a merge
 * train; issue 16): one fetch of the base, the lander's chain and the key registry; the landing commits
 * built one on another (L1 = merge(base, task 1), L2 = merge(L1, task 2), …), each with its own `Snodo-Job`
 * and `Snodo-Audit` trailer naming its own `remote-landing-start` event; the deterministic re-check once on
 * the last tree; one atomic, leased push of the base and the chain snapshot.
 *
 * A car that conflicts is kept with the files, and the train goes on without it. A car already in the base
 * (a retried job) is reported landed. A failed re-check of a train of several lands each car alone, each
 * re-checked on its own, so the kept one names the gate it failed. A lost race (the remote moved a leased
 * ref) is audited `rejected` for every car, refetched and rebuilt, at most `maxAttempts` pushes. A car
 * `request.withdrawn` names just before a push (its job was cancelled) is kept and the train rebuilt without it.
 */
export async function landTrainOnRemote(request: LandingTrainRequest): Promise<LandingTrainResult> {
  const { baseName, maxAttempts } = await checkTrainRequest(request);
  const clone = await findRepositoryRoot(request.clone);
  // The chain is the clone's `.snodo/audit.log`: ignored like every runtime file, so `git status` stays clean.
  ensureRuntimeExclusions(await findGitCommonDirectory(clone));
  const trail = await AuditTrail.open({
    repositoryRoot: clone,
    snodoHome: request.snodoHome,
    actor: `worker:${request.workerId}`,
    createdBy: `snodo@${SNODO_VERSION}`,
  });
  try {
    return await runTrain({ ...request, clone }, trail, baseName, maxAttempts);
  } finally {
    await trail.close();
    await removeJobCopies(clone, request.remote);
  }
}

async function runTrain(
  request: LandingTrainRequest,
  trail: AuditTrail,
  baseName: string,
  maxAttempts: number,
): Promise<LandingTrainResult> {
  const { clone, remote, workerId } = request;
  const baseRef = `refs/heads/${baseName}`;
  const chainRef = workerAuditRef(workerId);
  const copies = landingCopyPrefix(remote);
  const baseCopy = `${copies}heads/${baseName}`;
  const chainCopy = `${copies}workers/${workerId}`;
  const keysCopy = `${copies}keys`;
  const keyId = loadOrCreateSigningKey(request.snodoHome).keyId;
  const trainId = request.cars.length > 1 ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const ledger: TrainLedger = trainLedger({ trail, request, baseRef, trainId });
  const stopAll = async (cars: readonly LandingCar[], attempt: number, reason: string) => {
    await ledger.keepAll(cars, attempt, reason);
    return ledger.finish();
  };

  let pending: readonly LandingCar[] = request.cars;
  let rejectedPushes = 0;
  let lastRejection = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (request.signal?.aborted) {
      return stopAll(
        pending,
        attempt - 1,
        'the landing was cancelled before it pushed; nothing moved on the remote',
      );
    }
    // The globs match only this worker's chain (and ids it prefixes) and the key registry; --prune drops a
    // copy whose ref is gone, so each copy says what the remote holds now.
    // The cars' job refs come too (globs: a ref the remote lacks is no error), bringing a task commit this
    // clone lacks, and the value each is leased at when the push removes it.
    const jobCopy = (car: LandingCar) => `${copies}jobs/${car.jobId}`;
    await fetchFromRemote(
      clone,
      remote,
      [
        `+${baseRef}:${baseCopy}`,
        `+${chainRef}*:${chainCopy}*`,
        `+${WORKER_KEYS_REF}*:${keysCopy}*`,
        ...pending.map((car) => `+${jobResultRef(car.jobId)}*:${jobCopy(car)}*`),
      ],
      { prune: true },
    );
    const [seenBase, seenChain, seenKeys, ...seenJobRefs] = await resolveCommits(clone, [
      baseCopy,
      chainCopy,
      keysCopy,
      ...pending.map(jobCopy),
    ]);
    const seenJobRef = new Map(pending.map((car, index) => [car.jobId, seenJobRefs[index]]));
    if (seenBase === undefined) {
      return stopAll(pending, attempt, `${remote} has no branch ${baseName} to land on`);
    }
    const identityProblem = await landerIdentityProblem({
      clone,
      workerId,
      keyId,
      logId: trail.logId,
      logPath: auditLogPath(clone),
      keysTip: seenKeys,
      chainTip: seenChain,
    });
    if (identityProblem !== undefined) return stopAll(pending, attempt, identityProblem);
    pending = await settleMissingAndLanded(request, ledger, pending, { seenBase, attempt, rejectedPushes });
    if (pending.length === 0) return ledger.finish();

    // Built, re-checked and asked whether every car is still wanted; a withdrawn car is kept and the rest
    // rebuilt on the same fetch (the later cars' trees held its change). Ends: pending shrinks each round.
    let built: TrainCandidates;
    let recheck: TrainRecheckOutcome;
    for (;;) {
      built = await buildTrainCandidates({ clone, cars: pending, seenBase, baseName });
      for (const conflict of built.conflicts) {
        // A conflict with an earlier car is not final: that car may yet fail to land (a refused push, a
        // failed train re-check). Unsettled, the car is landed on its own later, against whatever landed.
        await ledger.keep(
          conflict.car,
          attempt,
          conflict.withTrain ? `${conflict.reason}; it lands on its own after the train` : conflict.reason,
          { conflictedFiles: conflict.conflictedFiles, settled: !conflict.withTrain },
        );
      }
      pending = built.candidates.map((candidate) => candidate.car);
      if (pending.length === 0 || built.lastCommit === undefined) return ledger.finish();

      recheck = await trainRecheck(request, built.candidates, built.lastCommit, seenBase, baseName);
      if (recheck.kind === 'failed') {
        if (built.candidates.length === 1) {
          const [only] = pending as [LandingCar];
          await ledger.keep(only, attempt, recheck.reason, { recheckGates: recheck.gates });
          return ledger.finish();
        }
        // One bad change must neither block nor ride in on the good ones: each lands alone, re-checked alone.
        const alone: TrainCarResult[] = [];
        for (const car of pending) {
          const single = await runTrain({ ...request, cars: [car] }, trail, baseName, maxAttempts);
          alone.push(...single.cars);
        }
        return ledger.finish(alone, recheck.reason);
      }
      if (request.signal?.aborted) {
        return stopAll(
          pending,
          attempt,
          'the landing was cancelled before it pushed; nothing moved on the remote',
        );
      }
      const withdrawn = await withdrawCars(request, ledger, pending, attempt);
      if (withdrawn.size === 0) break;
      pending = pending.filter((car) => !withdrawn.has(car.jobId));
      if (pending.length === 0) return ledger.finish();
    }

    const landings = await commitLandings(request, ledger, built.candidates, {
      seenBase,
      attempt,
      baseName,
      recheck,
    });
    // The log reaches disk before the push that names its events.
    await trail.sync();
    const snapshot = await snapshotChain({ clone, trail, workerId, parent: seenChain });
    const last = landings.at(-1) as string;
    const pushed = await pushAtomically(clone, remote, [
      { source: last, destination: baseRef, expected: seenBase },
      { source: snapshot.commit, destination: chainRef, expected: seenChain ?? null },
    ]);
    if (pushed.status === 'pushed') {
      // A landed job's ref is removed after the landing, best effort and leased at the task commit: the base
      // now holds the commit, a ref that moved meanwhile (a new run of the job) is left alone, and a remote
      // that refuses deletions (receive.denyDeletes, protected refs) keeps the refs but still takes landings.
      const jobRefDeletions = built.candidates
        .filter(({ car }) => seenJobRef.get(car.jobId) === car.taskCommit)
        .map(({ car }) => ({ source: '', destination: jobResultRef(car.jobId), expected: car.taskCommit }));
      if (jobRefDeletions.length > 0) {
        await pushAtomically(clone, remote, jobRefDeletions).catch(() => undefined);
      }
      await git(['update-ref', baseCopy, last], { cwd: clone, allowFailure: true });
      await git(['update-ref', chainCopy, snapshot.commit], { cwd: clone, allowFailure: true });
      for (const [index, candidate] of built.candidates.entries()) {
        await ledger.landed(candidate.car, attempt, landings[index] as string, rejectedPushes);
      }
      return ledger.finish();
    }
    if (pushed.status === 'failed') {
      return stopAll(pending, attempt, `${remote} refused the push: ${pushed.detail}`);
    }
    rejectedPushes += 1;
    lastRejection = pushed.detail;
    for (const car of pending) await ledger.rejected(car, attempt, pushed.detail);
  }
  return stopAll(
    pending,
    maxAttempts,
    `another lander moved ${baseName} on ${remote} before each of ${maxAttempts} pushes (last: ${lastRejection}); ` +
      'nothing moved on the remote; land it again when the queue is quieter',
  );
}

/**
 * Asks `request.withdrawn` which of `cars` are no longer wanted and keeps those (settled: the decision is
 * about the job) with the caller's reason. Returns their job ids; none without the hook.
 */
async function withdrawCars(
  request: LandingTrainRequest,
  ledger: TrainLedger,
  cars: readonly LandingCar[],
  attempt: number,
): Promise<Set<string>> {
  if (request.withdrawn === undefined) return new Set();
  const answer = await request.withdrawn(cars.map((car) => car.jobId));
  const reasons = new Map(answer.map((entry) => [entry.jobId, entry.reason]));
  for (const car of cars) {
    const reason = reasons.get(car.jobId);
    if (reason !== undefined) await ledger.keep(car, attempt, `withdrawn before the push: ${reason}`);
  }
  return new Set(cars.filter((car) => reasons.has(car.jobId)).map((car) => car.jobId));
}

/**
 * Keeps the cars whose task commit is neither in the clone nor came with their job ref, and reports landed
 * the cars already in the base (a retried job whose push had gone through). Returns the cars still to land.
 */
async function settleMissingAndLanded(
  request: LandingTrainRequest,
  ledger: TrainLedger,
  cars: readonly LandingCar[],
  at: { seenBase: string; attempt: number; rejectedPushes: number },
): Promise<LandingCar[]> {
  const { clone, remote } = request;
  const left: LandingCar[] = [];
  for (const car of cars) {
    if ((await resolveCommit(clone, car.taskCommit)) === undefined) {
      await ledger.keep(
        car,
        at.attempt,
        `the task commit ${car.taskCommit.slice(0, 12)} is neither in ${clone} nor at ${jobResultRef(car.jobId)} on ${remote}`,
        { settled: true },
      );
    } else if (await isAncestor(clone, car.taskCommit, at.seenBase)) {
      const landing = await findLandingOfJob(clone, at.seenBase, car.jobId);
      ledger.alreadyLanded(car, landing ?? at.seenBase, at.attempt - 1, at.rejectedPushes);
    } else {
      left.push(car);
    }
  }
  return left;
}

/**
 * Appends each car's `remote-landing-start` and builds its landing commit on the previous one (the first on
 * the base as seen), with the trailers naming that event. Returns the landing commits in order.
 */
async function commitLandings(
  request: LandingTrainRequest,
  ledger: TrainLedger,
  candidates: readonly TrainCandidate[],
  at: {
    seenBase: string;
    attempt: number;
    baseName: string;
    recheck: Exclude<TrainRecheckOutcome, { kind: 'failed' }>;
  },
): Promise<string[]> {
  const { clone, workerId } = request;
  const identity = await resolveGitIdentity(clone);
  const landings: string[] = [];
  let tip = at.seenBase;
  for (const [index, candidate] of candidates.entries()) {
    const { car } = candidate;
    const parents = [tip, car.taskCommit] as const;
    const start = await ledger.start(car, index, {
      seenBase: at.seenBase,
      tree: candidate.tree,
      parents,
      attempt: at.attempt,
      recheck: tip === car.taskBase ? 'not-needed' : at.recheck.kind,
      ...(tip !== car.taskBase && 'gates' in at.recheck && at.recheck.gates !== undefined
        ? { recheckGates: at.recheck.gates }
        : {}),
    });
    tip = await commitTree({
      cwd: clone,
      tree: candidate.tree,
      parents,
      message: landingMessage(`snodo: land job ${car.jobId} on ${at.baseName} (worker ${workerId})`, {
        'Snodo-Job': car.jobId,
        [AUDIT_ANCHOR_TRAILER_KEY]: formatAuditAnchor({ worker: workerId, seq: start.seq, hash: start.hash }),
      }),
      identity,
    });
    landings.push(tip);
  }
  return landings;
}

/** Drops the fetched copies of job refs (under the landing copies, which the repository guard leaves out). */
async function removeJobCopies(clone: string, remote: string): Promise<void> {
  const listed = await git(['for-each-ref', '--format=%(refname)', `${landingCopyPrefix(remote)}jobs/`], {
    cwd: clone,
    readOnly: true,
    allowFailure: true,
  });
  const deletions = listed.stdout
    .split('\n')
    .filter((ref) => ref !== '')
    .map((ref) => `delete ${ref}\n`)
    .join('');
  if (deletions !== '')
    await git(['update-ref', '--stdin'], { cwd: clone, input: deletions, allowFailure: true });
}
