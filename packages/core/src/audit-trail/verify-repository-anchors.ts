import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AuditLogGenesis,
  type AuditVerifyFailure,
  type AuditVerifyResult,
  checkCheckpointSignature,
  keyIdOf,
  loadPublicKey,
  PUBLIC_KEY_FILE,
  readLogGenesis,
  type SignedCheckpoint,
  verifyAuditLog,
} from '@snodo/audit';
import { type AuditLineage, checkLineageFit, readAuditLineage } from './audit-lineage.js';
import { auditLogPath, signingKeyDirectory } from './audit-paths.js';
import { otherRepositoryLogIds, type RepositoryAnchor, readRepositoryAnchors } from './repository-anchors.js';

/** Where checkpoints were found and how many, for `snodo audit verify`. */
export interface CheckpointSources {
  /** Checkpoints signed by this machine's key for this repository, from all places (duplicates once). */
  readonly own: number;
  readonly store: number;
  readonly ref: number;
  readonly trailers: number;
  /** From `audit.remote`'s `refs/snodo/audit`. */
  readonly remote: number;
  /** Checkpoints signed by another key than this machine's, so not checked here. */
  readonly foreignKey: number;
  /** Checkpoints of another repository's log on this machine (a merge pulled from a second clone). */
  readonly otherRepository: number;
  /** Checkpoints of earlier logs this one replaced by a signed reset, checked against what it recorded. */
  readonly lineage: number;
}

/** The verification of a repository's audit log against every anchor snodo keeps. */
export interface RepositoryAuditVerification {
  readonly logPath: string;
  /** Whether `.snodo/audit.log` exists. */
  readonly logExists: boolean;
  readonly result: AuditVerifyResult;
  readonly checkpoints: CheckpointSources;
  /** Earlier log ids this log replaced through signed resets, newest first. */
  readonly lineage: readonly string[];
  /** What this verification could not check, said plainly. */
  readonly notChecked: readonly string[];
}

/** Everything verification learnt, for `snodo audit reset` to record the old head from. */
export interface RepositoryAuditInspection {
  readonly verification: RepositoryAuditVerification;
  readonly genesis: AuditLogGenesis | undefined;
  readonly lineage: AuditLineage;
  /** The chain checked against the current log's own anchors (without the log-id checks). */
  readonly chain: AuditVerifyResult | undefined;
  /** Anchors signed by this machine's key, signature checked, of this repository (any log id). */
  readonly ownAnchors: readonly SignedCheckpoint[];
}

const emptyLineage: AuditLineage = { records: new Map(), problems: [] };

/**
 * Verifies the log against every anchor of this repository (SPEC §12): the chain against the anchors of
 * its own log id; an anchor naming another id that is not in its signed reset lineage is `E_LOG_REPLACED`;
 * anchors of earlier logs must fit what the reset recorded; a missing log with anchors is `E_LOG_MISSING`.
 * Only checkpoints signed by this machine's key count; others are reported as not checked.
 */
export async function inspectRepositoryAudit(options: {
  repositoryRoot: string;
  gitCommonDirectory: string;
  snodoHome: string;
  remote?: string | undefined;
}): Promise<RepositoryAuditInspection> {
  const logPath = auditLogPath(options.repositoryRoot);
  const logExists = existsSync(logPath);
  const genesis = logExists ? readLogGenesis(logPath) : undefined;
  const logId = genesis?.logId;
  const found = await readRepositoryAnchors({ ...options, logId });
  const notChecked = [...found.notChecked];
  const publicKeyPath = join(signingKeyDirectory(options.snodoHome), PUBLIC_KEY_FILE);
  const publicKey = existsSync(publicKeyPath) ? loadPublicKey(publicKeyPath) : undefined;
  if (publicKey === undefined) notChecked.push(`checkpoint signatures: no public key at ${publicKeyPath}`);
  const lineage =
    genesis !== undefined && publicKey !== undefined
      ? readAuditLineage(options.repositoryRoot, genesis, [publicKey])
      : emptyLineage;
  notChecked.push(...lineage.problems);
  const sorted = sortAnchors(found.anchors, {
    publicKey,
    logId,
    lineage,
    others: otherRepositoryLogIds(options.snodoHome, options.gitCommonDirectory),
  });
  if (sorted.foreignKey > 0)
    notChecked.push(`${sorted.foreignKey} checkpoint(s) signed by another snodo key`);
  if (sorted.otherRepository > 0) {
    notChecked.push(`${sorted.otherRepository} checkpoint(s) of another repository's log on this machine`);
  }
  let chain: AuditVerifyResult | undefined;
  let result: AuditVerifyResult;
  if (!logExists) {
    const ids = [...new Set(sorted.own.map((checkpoint) => checkpoint.log_id))];
    result = failed({
      code: 'E_LOG_MISSING',
      reason:
        sorted.own.length === 0
          ? 'there is no audit log, and no anchor names one'
          : `the audit log is missing, but ${sorted.own.length} signed anchor(s) name log ${ids.join(', ')}`,
    });
  } else {
    chain = await verifyAuditLog(logPath, {
      checkpoints: sorted.current,
      ...(publicKey === undefined ? {} : { publicKey }),
    });
    const remoteFailure: AuditVerifyFailure | undefined =
      found.remoteRewound === undefined ? undefined : { code: 'E_REWRITTEN', reason: found.remoteRewound };
    const failure = genesis === undefined ? undefined : (sorted.failure ?? remoteFailure);
    result = failure === undefined ? chain : { ...chain, ok: false, checkpointsVerified: 0, failure };
  }
  const verification: RepositoryAuditVerification = {
    logPath,
    logExists,
    result,
    checkpoints: {
      own: sorted.own.length,
      ...found.counts,
      foreignKey: sorted.foreignKey,
      otherRepository: sorted.otherRepository,
      lineage: sorted.lineageCount,
    },
    lineage: [...lineage.records.keys()],
    notChecked,
  };
  return { verification, genesis, lineage, chain, ownAnchors: sorted.own };
}

function failed(failure: AuditVerifyFailure): AuditVerifyResult {
  return { ok: false, events: 0, lines: 0, checkpointsVerified: 0, warnings: [], failure };
}

interface SortedAnchors {
  /** Own-key anchors of this repository, signature checked, any log id. */
  readonly own: SignedCheckpoint[];
  /** Those of the current log, for the chain check. */
  readonly current: SignedCheckpoint[];
  readonly foreignKey: number;
  readonly otherRepository: number;
  readonly lineageCount: number;
  readonly failure?: AuditVerifyFailure;
}

/** Splits anchors by key and log id; the first anchor that contradicts the log becomes the failure. */
function sortAnchors(
  anchors: readonly RepositoryAnchor[],
  context: {
    publicKey: KeyObject | undefined;
    logId: string | undefined;
    lineage: AuditLineage;
    others: Set<string>;
  },
): SortedAnchors {
  const own: SignedCheckpoint[] = [];
  const current: SignedCheckpoint[] = [];
  let foreignKey = 0;
  let otherRepository = 0;
  let lineageCount = 0;
  let failure: AuditVerifyFailure | undefined;
  const seen = new Set<string>();
  const ownKeyId = context.publicKey === undefined ? undefined : keyIdOf(context.publicKey);
  for (const { checkpoint, where } of anchors) {
    if (ownKeyId === undefined || checkpoint.key_id !== ownKeyId) {
      foreignKey += 1;
      continue;
    }
    const known = context.lineage.records.get(checkpoint.log_id);
    if (checkpoint.log_id !== context.logId && known === undefined && context.others.has(checkpoint.log_id)) {
      otherRepository += 1;
      continue;
    }
    const identity = `${checkpoint.log_id}:${checkpoint.size}:${checkpoint.head_hash}:${checkpoint.sig}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    const badSignature = checkCheckpointSignature(checkpoint, [context.publicKey as KeyObject]);
    if (badSignature !== undefined) {
      failure ??= { code: 'E_CKPT_SIG', reason: `a checkpoint in ${where}: ${badSignature}` };
      continue;
    }
    own.push(checkpoint);
    if (checkpoint.log_id === context.logId) {
      current.push(checkpoint);
    } else if (known !== undefined) {
      lineageCount += 1;
      const misfit = checkLineageFit(known, checkpoint);
      if (misfit !== undefined) failure ??= { code: 'E_LOG_REPLACED', reason: `${misfit} (in ${where})` };
    } else {
      failure ??= {
        code: 'E_LOG_REPLACED',
        reason:
          `a checkpoint in ${where} (signed ${checkpoint.ts}) names log ${checkpoint.log_id}, this log is ` +
          `${context.logId ?? 'unreadable'}, and no signed reset links them: the log was replaced`,
      };
    }
  }
  return {
    own,
    current,
    foreignKey,
    otherRepository,
    lineageCount,
    ...(failure === undefined ? {} : { failure }),
  };
}
