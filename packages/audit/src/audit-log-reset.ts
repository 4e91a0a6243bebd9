import { type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { existsSync, linkSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditData, AuditEvent } from './audit-event.js';
import { canonicalJson } from './canonical-json.js';
import { createLogFile, syncDirectory } from './create-log-file.js';
import { AuditWriteError } from './errors/audit-write-error.js';
import { AuditOptionsError } from './errors.js';
import { withLockFile } from './lock-file.js';
import { prepareEventData } from './prepare-event-data.js';
import { Redactor } from './redactor.js';
import { keyIdOf, type SigningKey } from './signing-key.js';

/**
 * Domain tag of reset signatures: a reset is only honoured when snodo's own key signed it, so a log
 * written from scratch cannot claim an old log's anchors by naming it as `previous`.
 */
export const RESET_DOMAIN = 'snodo/audit/reset/v1\0';

/** A log's head as a reset records it: enough to check later anchors of that log against. */
export interface AuditLogHeadRecord {
  /** The log id. */
  readonly log_id: string;
  /** Number of events (head seq + 1). */
  readonly size: number;
  /** Hash of event `size - 1`. */
  readonly head_hash: string;
}

/**
 * The log a reset replaced, recorded in the new log's genesis event (`data.previous`). `source` says where
 * the head came from: `log` (the old log verified against its anchors), `checkpoint` (the newest signed
 * anchor, because the log was missing or did not verify), `log-prefix` (the verified part of a broken log
 * that had no anchors).
 */
export interface AuditLogPrevious extends AuditLogHeadRecord {
  readonly source: 'log' | 'checkpoint' | 'log-prefix';
  /** Where the old log was moved, relative to the repository (`.snodo/audit.<log id>.log`). */
  readonly archived_as?: string;
}

/** What a reset writes into the new genesis event besides the usual fields. */
export interface AuditLogReset {
  /** The log this one replaces. */
  readonly previous: AuditLogPrevious;
  /** Other log ids the anchors named at reset time, each with its furthest anchored head. */
  readonly superseded?: readonly AuditLogHeadRecord[];
  /** Why, in the words of the human who reset. */
  readonly reason: string;
}

/** Options of `resetAuditLog`. */
export interface ResetAuditLogOptions {
  /** Where the current log goes (never overwritten); required when a log exists at the path. */
  readonly archivePath?: string;
  readonly reset: AuditLogReset;
  /** The repository identity for the new genesis event. */
  readonly repository: { readonly [key: string]: unknown };
  /** What creates the log (`snodo@0.4.0`). */
  readonly createdBy: string;
  /** Who resets: the genesis event's actor (`human:ana`). */
  readonly actor: string;
  /** snodo's signing key: signs the reset into the genesis (`reset_key_id`, `reset_sig`). */
  readonly key: SigningKey;
  /** Permission bits of the new file. Default 0o644. */
  readonly fileMode?: number;
  /** How long to wait for an append in progress. Default 45 s. */
  readonly lockTimeoutMs?: number;
}

/**
 * Starts a new log at `path` whose genesis event names the old head, the reason and the actor: the one
 * audited way to begin again over existing anchors. Under the log's lock, so no append lands in between,
 * the current log (when there is one) is hard-linked to `archivePath` — never overwriting, never deleting
 * its bytes — and unlinked; then the new log is created. A process still holding the old log open finds
 * its file replaced and refuses to append (`AuditWriteError`, sticky). Returns the new genesis event.
 */
export async function resetAuditLog(path: string, options: ResetAuditLogOptions): Promise<AuditEvent> {
  if (options.reset.reason.trim() === '') {
    throw new AuditOptionsError({
      option: 'reset.reason',
      problem: 'is empty',
      fix: 'Say why the log starts again; it is recorded in the new genesis event.',
    });
  }
  const redactor = new Redactor();
  const repository = prepareEventData(options.repository, redactor);
  const logId = randomBytes(16).toString('hex');
  const statement = prepareEventData(
    {
      previous: options.reset.previous,
      ...(options.reset.superseded === undefined || options.reset.superseded.length === 0
        ? {}
        : { superseded: options.reset.superseded }),
      reason: options.reset.reason,
      reset_key_id: options.key.keyId,
    },
    redactor,
  );
  const signature = sign(null, resetMessage(logId, statement), options.key.privateKey).toString('base64');
  const extra: AuditData = { ...statement, reset_sig: signature };
  const lock = { timeoutMs: options.lockTimeoutMs ?? 45_000, staleMs: 30_000 };
  return withLockFile(`${path}.lock`, lock, () => {
    if (existsSync(path)) {
      if (options.archivePath === undefined) {
        throw new AuditOptionsError({
          option: 'archivePath',
          problem: `is missing, and a log exists at ${path}`,
          fix: 'Name where the current log is kept (snodo uses .snodo/audit.<log id>.log).',
        });
      }
      archive(path, options.archivePath);
    }
    const genesis = createLogFile(path, {
      repository,
      createdBy: options.createdBy,
      actor: options.actor,
      mode: options.fileMode ?? 0o644,
      extra,
      logId,
    });
    if (genesis === undefined) {
      throw new AuditWriteError({
        path,
        problem: 'another process created a log there during the reset',
        fix: 'Run `snodo audit verify` to see which log is there now, then reset again if needed.',
      });
    }
    return genesis;
  });
}

function archive(path: string, archivePath: string): void {
  try {
    linkSync(path, archivePath);
  } catch (cause) {
    throw new AuditWriteError({
      path,
      problem: `it could not be kept as ${archivePath} (${(cause as Error).message})`,
      fix: 'Move that file away if it is an old copy, then reset again.',
      cause,
    });
  }
  unlinkSync(path);
  syncDirectory(dirname(path));
}

/**
 * Checks the reset signature in a genesis event's data against the key among `publicKeys` it names.
 * Returns the problem in words, or `undefined` when the reset was signed by one of those keys.
 */
export function checkResetSignature(
  genesisData: AuditData,
  publicKeys: readonly KeyObject[],
): string | undefined {
  const { reset_sig: signature, log_id: logId, repository, created_by, ...statement } = genesisData;
  if (typeof signature !== 'string' || typeof logId !== 'string')
    return 'the genesis event carries no reset signature';
  const key = publicKeys.find((candidate) => keyIdOf(candidate) === statement.reset_key_id);
  if (key === undefined)
    return `the reset is signed by key ${String(statement.reset_key_id)}, not by this machine's key`;
  try {
    if (verify(null, resetMessage(logId, statement), key, Buffer.from(signature, 'base64'))) return undefined;
  } catch {
    // A malformed signature is a bad one.
  }
  return 'the reset signature does not verify';
}

/** The bytes a reset signature covers: the domain tag, the new log id and the reset statement. */
function resetMessage(logId: string, statement: AuditData): Buffer {
  const canonical = canonicalJson({ ...statement, log_id: logId });
  return Buffer.concat([Buffer.from(RESET_DOMAIN, 'utf8'), Buffer.from(canonical, 'utf8')]);
}
