import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import {
  type AuditLogHeadRecord,
  type AuditLogPrevious,
  resetAuditLog,
  type SignedCheckpoint,
} from '@snodo/audit';
import { AuditResetRefusedError } from '../errors.js';
import { archivedAuditLogPath, auditLogPath } from './audit-paths.js';
import { AuditTrail, repositoryIdentity } from './audit-trail.js';
import { loadOrCreateSigningKey } from './signing-key-store.js';
import { inspectRepositoryAudit, type RepositoryAuditInspection } from './verify-repository-anchors.js';

/** What `snodo audit reset` did. */
export interface AuditResetResult {
  /** The log that was replaced, as the new genesis records it. */
  readonly previous: AuditLogPrevious;
  /** Other log ids the anchors named, now accepted as earlier logs. */
  readonly superseded: readonly AuditLogHeadRecord[];
  /** Where the old log was kept (absolute), when there was one. */
  readonly archivedAs?: string;
  /** The new log's id. */
  readonly logId: string;
  /** The signed checkpoint of the new log (store and `refs/snodo/audit`). */
  readonly checkpoint: SignedCheckpoint;
  /** Problems that did not stop the reset (a failed push to `audit.remote`). */
  readonly warnings: readonly string[];
}

/** Options of `resetAuditTrail` (and `AuditTrail.reset`). */
export interface AuditResetOptions {
  readonly repositoryRoot: string;
  readonly gitCommonDirectory: string;
  readonly snodoHome: string;
  /** Who resets, recorded as the new genesis event's actor. */
  readonly actor: string;
  /** Why, recorded in the new genesis event. Must not be empty. */
  readonly reason: string;
  /** What creates the new log (`snodo@0.4.0`). */
  readonly createdBy: string;
  /** `audit.remote`, pushed to after the new log's first checkpoint. */
  readonly remote?: string | undefined;
}

/**
 * `snodo audit reset --reason`: the explicit, audited way to start a new log over existing anchors. The
 * current log is kept as `.snodo/audit.<id>.log`; the new genesis names the old head — the log's verified
 * head, else the newest signed anchor (`source`) — every other log id the anchors name, the reason and
 * the actor, signed with snodo's key; then a checkpoint of the new log is signed into the store and ref.
 */
export async function resetAuditTrail(options: AuditResetOptions): Promise<AuditResetResult> {
  if (options.reason.trim() === '') {
    throw new AuditResetRefusedError({
      reason: 'the reason is empty',
      fix: 'Say why the log starts again: snodo audit reset --reason "<why>".',
    });
  }
  const key = loadOrCreateSigningKey(options.snodoHome);
  const inspection = await inspectRepositoryAudit(options);
  const logPath = auditLogPath(options.repositoryRoot);
  const head = previousHead(inspection);
  if (head === undefined) {
    throw new AuditResetRefusedError({
      reason: inspection.verification.logExists
        ? 'the log holds no verifiable event and no signed anchor names it'
        : 'there is no audit log and no anchor names one, so there is nothing to reset',
      fix: 'The next `snodo run` starts a log.',
    });
  }
  const archivePath = existsSync(logPath) ? freeArchivePath(options.repositoryRoot, head.log_id) : undefined;
  const previous: AuditLogPrevious = {
    ...head,
    ...(archivePath === undefined ? {} : { archived_as: relative(options.repositoryRoot, archivePath) }),
  };
  const superseded = supersededHeads(inspection, previous.log_id);
  const genesis = await resetAuditLog(logPath, {
    ...(archivePath === undefined ? {} : { archivePath }),
    reset: { previous, superseded, reason: options.reason },
    repository: await repositoryIdentity(options.repositoryRoot),
    createdBy: options.createdBy,
    actor: options.actor,
    key,
  });
  const trail = await AuditTrail.open(options);
  try {
    await trail.sync();
    const { checkpoint, warnings } = await trail.checkpoint();
    return {
      previous,
      superseded,
      ...(archivePath === undefined ? {} : { archivedAs: archivePath }),
      logId: genesis.data.log_id as string,
      checkpoint,
      warnings,
    };
  } finally {
    await trail.close();
  }
}

/** The old head to record: the verified log, else its newest anchor, else the valid prefix of the log. */
function previousHead(
  inspection: RepositoryAuditInspection,
): Omit<AuditLogPrevious, 'archived_as'> | undefined {
  const { chain, genesis, ownAnchors } = inspection;
  if (genesis !== undefined && chain?.ok === true && chain.headHash !== undefined) {
    return { log_id: genesis.logId, size: chain.events, head_hash: chain.headHash, source: 'log' };
  }
  const candidates =
    genesis === undefined ? ownAnchors : ownAnchors.filter((anchor) => anchor.log_id === genesis.logId);
  const newest = [...(candidates.length > 0 ? candidates : ownAnchors)].sort(
    (left, right) => right.ts.localeCompare(left.ts) || right.size - left.size,
  )[0];
  if (newest !== undefined) {
    return { log_id: newest.log_id, size: newest.size, head_hash: newest.head_hash, source: 'checkpoint' };
  }
  if (genesis !== undefined && chain?.headHash !== undefined && chain.events > 0) {
    return { log_id: genesis.logId, size: chain.events, head_hash: chain.headHash, source: 'log-prefix' };
  }
  return undefined;
}

/** Every other log id the anchors and the current lineage name, each at its furthest known head. */
function supersededHeads(inspection: RepositoryAuditInspection, previousId: string): AuditLogHeadRecord[] {
  const heads = new Map<string, AuditLogHeadRecord>();
  const offer = (record: AuditLogHeadRecord) => {
    if (record.log_id === previousId) return;
    const known = heads.get(record.log_id);
    if (known === undefined || known.size < record.size) {
      heads.set(record.log_id, { log_id: record.log_id, size: record.size, head_hash: record.head_hash });
    }
  };
  for (const record of inspection.lineage.records.values()) offer(record);
  for (const anchor of inspection.ownAnchors) offer(anchor);
  if (inspection.genesis !== undefined && inspection.chain?.headHash !== undefined) {
    offer({
      log_id: inspection.genesis.logId,
      size: inspection.chain.events,
      head_hash: inspection.chain.headHash,
    });
  }
  return [...heads.values()].sort((left, right) => left.log_id.localeCompare(right.log_id));
}

/** `.snodo/audit.<id>.log`, or `.snodo/audit.<id>.<n>.log` when that name is taken. */
function freeArchivePath(repositoryRoot: string, logId: string): string {
  const base = archivedAuditLogPath(repositoryRoot, logId);
  if (!existsSync(base)) return base;
  for (let index = 2; ; index++) {
    const candidate = base.replace(/\.log$/, `.${index}.log`);
    if (!existsSync(candidate)) return candidate;
  }
}
