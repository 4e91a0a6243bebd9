import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import type { AuditEventData } from '../audit-trail/audit-event-vocabulary.js';
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
import { prepareLandingCandidate } from './landing-candidate.js';
import {
  baseBranchName,
  jobResultRef,
  landingCopyPrefix,
  refComponentProblem,
  WORKER_KEYS_REF,
  workerAuditRef,
} from './remote-landing-refs.js';
import type {
  RecheckGateRecord,
  RemoteLandingRequest,
  RemoteLandingResult,
} from './remote-landing-request.js';
import { fetchFromRemote, pushAtomically, requireRemote } from './remote-transfer.js';

export type {
  RecheckGateRecord,
  RemoteLandingRequest,
  RemoteLandingResult,
} from './remote-landing-request.js';

const defaultMaxAttempts = 5;
const objectName = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** The request checked before anything is fetched: names that go into refs, commit ids, the remote. */
async function checkRequest(
  request: RemoteLandingRequest,
): Promise<{ baseName: string; maxAttempts: number }> {
  const refuse = (what: string, value: string, problem: string): never => {
    throw new RemoteLandingInvalidError({ what, value, problem });
  };
  const base = baseBranchName(request.base);
  if ('problem' in base) refuse('The base branch', request.base, base.problem);
  const workerProblem = refComponentProblem(request.workerId);
  if (workerProblem !== undefined) refuse('The worker id', request.workerId, workerProblem);
  const jobProblem = refComponentProblem(request.jobId);
  if (jobProblem !== undefined) refuse('The job id', request.jobId, jobProblem);
  for (const [what, value] of [
    ['The task commit', request.taskCommit],
    ['The task base', request.taskBase],
  ] as const) {
    if (!objectName.test(value)) refuse(what, value, 'give the full commit id (40 or 64 hex digits)');
  }
  const maxAttempts = request.maxAttempts ?? defaultMaxAttempts;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) {
    refuse('maxAttempts', String(request.maxAttempts), 'give a whole number from 1 to 100');
  }
  await requireRemote(request.clone, request.remote);
  return { baseName: (base as { name: string }).name, maxAttempts };
}

/**
 * Lands a task commit on the shared remote's base (issue 16, items 3 and 5), from the lander's own clone:
 *
 * 1. fetch the base and the lander's chain ref (`refs/snodo/audit/<worker>`), and the task commit when
 *    the clone lacks it (`refs/snodo/jobs/<job>`);
 * 2. decide the landing commit's tree: the task's when the base did not move, else the in-memory merge
 *    onto the moved base (a conflict → `kept`) re-checked by `request.recheck`;
 * 3. append `remote-landing-start` to the lander's chain, naming that tree and the parents, then build the
 *    landing merge commit (parents: the base as seen, the task commit) whose `Snodo-Audit` trailer names
 *    that event's seq and hash;
 * 4. snapshot the chain (signed checkpoint + the covered log) as a commit on the worker's chain ref;
 * 5. push both in one `git push --atomic`, each ref under `--force-with-lease` at the value fetched: the
 *    remote's refs are the compare-and-swap. A lost race (`stale info`) is audited as `rejected`, refetched
 *    and tried again, at most `maxAttempts` pushes; then the job is `kept` with the reason.
 *
 * A landing commit is made even when the base did not move (never a bare fast-forward): the task commit
 * cannot carry a trailer written after it. Every git call is asynchronous, so a queue's lock renewal keeps
 * running. A job whose task commit is already in the base (a retried queue job) is reported `landed` with
 * `alreadyLanded` and nothing pushed.
 */
export async function landOnRemote(request: RemoteLandingRequest): Promise<RemoteLandingResult> {
  const { baseName, maxAttempts } = await checkRequest(request);
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
    return await landWithTrail({ ...request, clone }, trail, baseName, maxAttempts);
  } finally {
    await trail.close();
  }
}

async function landWithTrail(
  request: RemoteLandingRequest,
  trail: AuditTrail,
  baseName: string,
  maxAttempts: number,
): Promise<RemoteLandingResult> {
  const { clone, remote, workerId, jobId } = request;
  const baseRef = `refs/heads/${baseName}`;
  const chainRef = workerAuditRef(workerId);
  const copies = landingCopyPrefix(remote);
  const baseCopy = `${copies}heads/${baseName}`;
  const chainCopy = `${copies}workers/${workerId}`;
  const keysCopy = `${copies}keys`;
  const keyId = loadOrCreateSigningKey(request.snodoHome).keyId;
  const recordEnd = (
    attempt: number,
    outcome: AuditEventData<'remote-landing-end'>['outcome'],
    extra: {
      commit?: string;
      reason?: string;
      conflictedFiles?: readonly string[];
      recheckGates?: readonly RecheckGateRecord[];
    } = {},
  ) =>
    appendAuditEvent(
      trail,
      'remote-landing-end',
      {
        worker: workerId,
        remote,
        base_ref: baseRef,
        attempt,
        outcome,
        commit: extra.commit,
        reason: extra.reason,
        conflicted_files: extra.conflictedFiles,
        ...(extra.recheckGates === undefined ? {} : { recheck_gates: extra.recheckGates }),
      },
      { job: jobId },
    );
  const kept = async (
    attempt: number,
    reason: string,
    conflictedFiles?: readonly string[],
    recheckGates?: readonly RecheckGateRecord[],
  ): Promise<RemoteLandingResult> => {
    await recordEnd(attempt, 'kept', {
      reason,
      ...(conflictedFiles ? { conflictedFiles } : {}),
      ...(recheckGates ? { recheckGates } : {}),
    });
    await trail.sync();
    return { status: 'kept', reason, attempts: attempt, ...(conflictedFiles ? { conflictedFiles } : {}) };
  };

  let rejectedPushes = 0;
  let lastRejection = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (request.signal?.aborted) {
      return kept(attempt - 1, 'the landing was cancelled before it pushed; nothing moved on the remote');
    }
    // The globs match only this worker's chain (and ids it prefixes) and the key registry; --prune drops a
    // copy whose ref is gone, so each copy says what the remote holds now.
    await fetchFromRemote(
      clone,
      remote,
      [`+${baseRef}:${baseCopy}`, `+${chainRef}*:${chainCopy}*`, `+${WORKER_KEYS_REF}*:${keysCopy}*`],
      { prune: true },
    );
    const [seenBase, seenChain, seenKeys] = await resolveCommits(clone, [baseCopy, chainCopy, keysCopy]);
    if (seenBase === undefined) {
      return kept(attempt, `${remote} has no branch ${baseName} to land on`);
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
    if (identityProblem !== undefined) return kept(attempt, identityProblem);
    if ((await resolveCommit(clone, request.taskCommit)) === undefined) {
      const jobCopy = `${copies}jobs/${jobId}`;
      await fetchFromRemote(clone, remote, [`+${jobResultRef(jobId)}*:${jobCopy}*`]);
      const fetched = await resolveCommit(clone, request.taskCommit);
      await git(['update-ref', '-d', jobCopy], { cwd: clone, allowFailure: true });
      if (fetched === undefined) {
        return kept(
          attempt,
          `the task commit ${request.taskCommit.slice(0, 12)} is neither in ${clone} nor at ${jobResultRef(jobId)} on ${remote}`,
        );
      }
    }
    if (await isAncestor(clone, request.taskCommit, seenBase)) {
      const landing = await findLandingOfJob(clone, seenBase, jobId);
      return {
        status: 'landed',
        commit: landing ?? seenBase,
        attempts: attempt - 1,
        rejectedPushes,
        alreadyLanded: true,
      };
    }
    const candidate = await prepareLandingCandidate(request, seenBase, baseName);
    if (candidate.kind === 'kept') {
      return kept(attempt, candidate.reason, candidate.conflictedFiles, candidate.recheckGates);
    }
    if (request.signal?.aborted) {
      return kept(attempt, 'the landing was cancelled before it pushed; nothing moved on the remote');
    }

    const start = await appendAuditEvent(
      trail,
      'remote-landing-start',
      {
        worker: workerId,
        remote,
        base_ref: baseRef,
        base_commit: seenBase,
        task_commit: request.taskCommit,
        task_base: request.taskBase,
        tree: candidate.tree,
        parents: [...candidate.parents],
        attempt,
        recheck: candidate.recheck,
        ...(candidate.recheckGates === undefined ? {} : { recheck_gates: candidate.recheckGates }),
      },
      { job: jobId },
    );
    const landingCommit = await commitTree({
      cwd: clone,
      tree: candidate.tree,
      parents: candidate.parents,
      message: landingMessage(`snodo: land job ${jobId} on ${baseName} (worker ${workerId})`, {
        'Snodo-Job': jobId,
        [AUDIT_ANCHOR_TRAILER_KEY]: formatAuditAnchor({ worker: workerId, seq: start.seq, hash: start.hash }),
      }),
      identity: await resolveGitIdentity(clone),
    });
    // The log reaches disk before the push that names its event.
    await trail.sync();
    const snapshot = await snapshotChain({ clone, trail, workerId, parent: seenChain });
    const pushed = await pushAtomically(clone, remote, [
      { source: landingCommit, destination: baseRef, expected: seenBase },
      { source: snapshot.commit, destination: chainRef, expected: seenChain ?? null },
    ]);
    if (pushed.status === 'pushed') {
      await git(['update-ref', baseCopy, landingCommit], { cwd: clone, allowFailure: true });
      await git(['update-ref', chainCopy, snapshot.commit], { cwd: clone, allowFailure: true });
      await recordEnd(attempt, 'landed', { commit: landingCommit });
      await trail.sync();
      return { status: 'landed', commit: landingCommit, attempts: attempt, rejectedPushes };
    }
    if (pushed.status === 'failed') {
      return kept(attempt, `${remote} refused the push: ${pushed.detail}`);
    }
    rejectedPushes += 1;
    lastRejection = pushed.detail;
    await recordEnd(attempt, 'rejected', { reason: pushed.detail });
  }
  return kept(
    maxAttempts,
    `another lander moved ${baseName} on ${remote} before each of ${maxAttempts} pushes (last: ${lastRejection}); ` +
      'nothing moved on the remote; land it again when the queue is quieter',
  );
}
