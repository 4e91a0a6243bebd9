import { join } from 'node:path';
import {
  type AuditEvent,
  type DsseEnvelope,
  exportAttestation,
  loadSigningKey,
  readAuditEvents,
  readLogGenesis,
  SIGNING_KEY_FILE,
} from '@snodo/audit';
import {
  type AuditResetResult,
  auditLogPath,
  inspectRepositoryAudit,
  type RepositoryAuditVerification,
  resetAuditTrail,
  signingKeyDirectory,
} from '../audit-trail/index.js';
import { JobActionRefusedError } from '../errors.js';
import { readJobState } from '../jobs/index.js';
import { type RemoteAuditVerification, verifyRemoteAudit } from '../remote-landing/verify-remote-audit.js';
import { SNODO_VERSION } from '../version.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

export type { CheckpointSources, RepositoryAuditVerification } from '../audit-trail/index.js';

function logIdOf(logPath: string): string | undefined {
  return readLogGenesis(logPath)?.logId;
}

/**
 * `snodo audit verify`: recomputes the whole chain of `.snodo/audit.log` and checks it against every
 * anchor snodo keeps — this repository's checkpoint stores in `$SNODO_HOME/checkpoints/`,
 * `refs/snodo/audit`, the trailers of merge commits on all refs and, with `audit.remote`, the remote's
 * copy of the ref — so a cut-off tail, a rewrite, a replaced log (`E_LOG_REPLACED`) or a deleted one
 * (`E_LOG_MISSING`) fails.
 */
export async function verifyRepositoryAudit(
  options: TaskCommandOptions,
): Promise<RepositoryAuditVerification> {
  const scope = await openTaskScope(options);
  const { verification } = await inspectRepositoryAudit({
    repositoryRoot: scope.repositoryRoot,
    gitCommonDirectory: scope.gitCommonDirectory,
    snodoHome: scope.snodoHome,
    remote: scope.config.audit?.remote,
  });
  return verification;
}

/**
 * `snodo audit verify --remote <remote> [--base <branch>]`: one verifiable history across workers (issue
 * 16): every worker chain on the remote verified and signed by its registered key, and every snodo landing
 * on the base's first-parent history anchored in one chain; see `verifyRemoteAudit`.
 */
export async function verifyRemoteRepositoryAudit(
  options: TaskCommandOptions & { remote: string; base?: string | undefined },
): Promise<RemoteAuditVerification> {
  const scope = await openTaskScope(options);
  return verifyRemoteAudit({
    repositoryRoot: scope.repositoryRoot,
    remote: options.remote,
    base: options.base,
  });
}

/**
 * `snodo audit reset --reason <text>`: keeps the current log as `.snodo/audit.<id>.log` and starts a new
 * one whose signed genesis names the old head, the reason and who reset; see `resetAuditTrail`.
 */
export async function resetRepositoryAudit(
  options: TaskCommandOptions & { reason: string },
): Promise<AuditResetResult> {
  const scope = await openTaskScope(options);
  return resetAuditTrail({
    repositoryRoot: scope.repositoryRoot,
    gitCommonDirectory: scope.gitCommonDirectory,
    snodoHome: scope.snodoHome,
    actor: scope.actor,
    reason: options.reason,
    createdBy: `snodo@${SNODO_VERSION}`,
    remote: scope.config.audit?.remote,
  });
}

/** `snodo audit show`: the events of the log (verified as they are read), optionally of one job. */
export async function readRepositoryAudit(
  options: TaskCommandOptions & { jobId?: string },
): Promise<AuditEvent[]> {
  const scope = await openTaskScope(options);
  const events: AuditEvent[] = [];
  for await (const event of readAuditEvents(
    auditLogPath(scope.repositoryRoot),
    options.jobId ? { job: options.jobId } : {},
  )) {
    events.push(event);
  }
  return events;
}

/**
 * `snodo audit export --job <id>`: the job's audit events in an in-toto statement, signed into a DSSE
 * envelope with snodo's key. Subjects: the merge commit and the task branch tip, when they exist.
 */
export async function exportJobAttestation(
  options: TaskCommandOptions & { jobId: string },
): Promise<DsseEnvelope> {
  const scope = await openTaskScope(options);
  const state = readJobState(scope.repositoryRoot, options.jobId);
  const events = await readRepositoryAudit({ ...options });
  const jobEvents = events.filter((event) => event.job === options.jobId);
  const logPath = auditLogPath(scope.repositoryRoot);
  const subject = [
    ...(state.landing?.mergeCommit
      ? [{ name: 'merge-commit', digest: { gitCommit: state.landing.mergeCommit } }]
      : []),
    ...(state.attempts.at(-1)?.commit
      ? [{ name: 'task-branch', digest: { gitCommit: state.attempts.at(-1)?.commit as string } }]
      : []),
  ];
  if (subject.length === 0) {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'export',
      reason: 'it produced no commit to attest',
    });
  }
  const coderEnd = jobEvents.filter((event) => event.type === 'coder-end').at(-1);
  return exportAttestation({
    events: jobEvents,
    subject,
    logId: logIdOf(logPath),
    key: loadSigningKey(join(signingKeyDirectory(scope.snodoHome), SIGNING_KEY_FILE)),
    predicate: {
      job: options.jobId,
      task: state.task,
      status: state.status,
      outcome: state.outcome,
      mode: state.mode,
      coder: state.coder,
      models: state.models,
      verdicts: state.verdicts.map(({ gateId, phase, attempt, severity, error }) => ({
        gateId,
        phase,
        attempt,
        severity,
        error,
      })),
      diff_sha256: (coderEnd?.data as { diff_sha256?: string } | undefined)?.diff_sha256,
      merge_commit: state.landing?.mergeCommit,
      base_commit: state.isolation?.baseCommit,
    },
  });
}
