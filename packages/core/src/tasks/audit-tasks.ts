import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AuditEvent,
  type AuditVerifyResult,
  CHECKPOINT_TRAILER_KEY,
  type DsseEnvelope,
  exportAttestation,
  keyIdOf,
  loadPublicKey,
  loadSigningKey,
  PUBLIC_KEY_FILE,
  parseCheckpointTrailer,
  readAuditEvents,
  readCheckpoints,
  SIGNING_KEY_FILE,
  type SignedCheckpoint,
  verifyAuditLog,
} from '@snodo/audit';
import {
  auditLogPath,
  checkpointStorePath,
  readCheckpointsFromRef,
  signingKeyDirectory,
} from '../audit-trail/index.js';
import { git } from '../git/index.js';
import { readJobState } from '../jobs/index.js';
import { JobActionRefusedError } from './job-action-refused-error.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

/** Where checkpoints were found and how many, for `snodo audit verify`. */
export interface CheckpointSources {
  readonly store: number;
  readonly ref: number;
  readonly trailers: number;
  /** Checkpoints signed by another key than this machine's, so not checked here. */
  readonly foreignKey: number;
}

/** The verification of a repository's audit log against every anchor snodo keeps. */
export interface RepositoryAuditVerification {
  readonly logPath: string;
  readonly result: AuditVerifyResult;
  readonly checkpoints: CheckpointSources;
  /** What this verification could not check, said plainly. */
  readonly notChecked: readonly string[];
}

function logIdOf(logPath: string): string | undefined {
  try {
    const firstLine = readFileSync(logPath, 'utf8').split('\n', 1)[0] ?? '';
    return (JSON.parse(firstLine) as { data?: { log_id?: string } }).data?.log_id;
  } catch {
    return undefined;
  }
}

async function trailerCheckpoints(repositoryRoot: string): Promise<SignedCheckpoint[]> {
  const log = await git(['log', '--all', `--grep=${CHECKPOINT_TRAILER_KEY}:`, '--format=%B%x00'], {
    cwd: repositoryRoot,
    allowFailure: true,
    readOnly: true,
  });
  const found: SignedCheckpoint[] = [];
  for (const line of log.stdout.split('\n')) {
    if (!line.startsWith(`${CHECKPOINT_TRAILER_KEY}:`)) continue;
    try {
      found.push(parseCheckpointTrailer(line.replace(/\0/g, '')));
    } catch {
      // A malformed trailer is not an anchor; the others still are.
    }
  }
  return found;
}

/**
 * `snodo audit verify`: recomputes the whole chain of `.snodo/audit.log` and checks it against every
 * signed checkpoint snodo can find — the store in `$SNODO_HOME/checkpoints/`, `refs/snodo/audit`, and the
 * trailers of merge commits — so a cut-off tail or a rewrite of anchored events fails.
 */
export async function verifyRepositoryAudit(
  options: TaskCommandOptions,
): Promise<RepositoryAuditVerification> {
  const scope = await openTaskScope(options);
  const logPath = auditLogPath(scope.repositoryRoot);
  const notChecked: string[] = ['remote copies of the repository (push refs/snodo/audit to keep one)'];
  const publicKeyPath = join(signingKeyDirectory(scope.snodoHome), PUBLIC_KEY_FILE);
  const logId = existsSync(logPath) ? logIdOf(logPath) : undefined;
  const fromStore = logId ? readCheckpoints(checkpointStorePath(scope.snodoHome, logId)) : [];
  const fromRef = await readCheckpointsFromRef(scope.repositoryRoot);
  const fromTrailers = await trailerCheckpoints(scope.repositoryRoot);
  let checkpoints = [...fromStore, ...fromRef, ...fromTrailers].filter(
    (checkpoint) => checkpoint.log_id === logId,
  );
  let foreignKey = 0;
  let publicKey: ReturnType<typeof loadPublicKey> | undefined;
  if (existsSync(publicKeyPath)) {
    publicKey = loadPublicKey(publicKeyPath);
    const ownKeyId = keyIdOf(publicKey);
    const own = checkpoints.filter((checkpoint) => checkpoint.key_id === ownKeyId);
    foreignKey = checkpoints.length - own.length;
    checkpoints = own;
    if (foreignKey > 0) notChecked.push(`${foreignKey} checkpoint(s) signed by another snodo key`);
  } else {
    notChecked.push(`checkpoint signatures: no public key at ${publicKeyPath}`);
    checkpoints = [];
  }
  const unique = new Map(
    checkpoints.map((checkpoint) => [
      `${checkpoint.size}:${checkpoint.head_hash}:${checkpoint.sig}`,
      checkpoint,
    ]),
  );
  const result = await verifyAuditLog(logPath, {
    checkpoints: [...unique.values()],
    ...(publicKey ? { publicKey } : {}),
  });
  return {
    logPath,
    result,
    checkpoints: { store: fromStore.length, ref: fromRef.length, trailers: fromTrailers.length, foreignKey },
    notChecked,
  };
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
