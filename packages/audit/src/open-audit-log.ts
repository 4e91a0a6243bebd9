import { closeSync, existsSync, openSync } from 'node:fs';
import { AuditLog } from './audit-log.js';
import { createLogFile } from './create-log-file.js';
import { AuditChainError } from './errors/audit-chain-error.js';
import { AuditFileError, AuditOptionsError } from './errors.js';
import { MAX_LINE_BYTES } from './line-scanner.js';
import { prepareEventData } from './prepare-event-data.js';
import { Redactor } from './redactor.js';
import { type VerifyAuditLogOptions, verifyAuditLog } from './verify-audit-log.js';
import { verifyAuditLogFromCheckpoint } from './verify-from-checkpoint.js';

/** Options of `openAuditLog`. */
export interface OpenAuditLogOptions {
  /**
   * The repository's identity, recorded in the genesis event when the log is created (e.g.
   * `{ root_commits: ['…'], path: '/work/app' }`). Required to create a log; ignored when it exists.
   */
  readonly repository?: { readonly [key: string]: unknown };
  /** What creates the log, recorded in the genesis event (`snodo@0.4.0`). Default `@snodo/audit`. */
  readonly createdBy?: string;
  /** Actor of events that omit one, and of the events the log writes itself. Default `snodo`. */
  readonly actor?: string;
  /** Create the log when it does not exist (default true); false makes a missing log an `AuditFileError`. */
  readonly create?: boolean;
  /** Secret values to mask in every event (provider keys injected into a coder's environment). */
  readonly secrets?: readonly string[];
  /** Extra key names whose values are always masked, on top of `SECRET_KEY_SUFFIXES`. */
  readonly secretKeys?: readonly string[];
  /** Checkpoints the log must satisfy to be opened (see `verifyAuditLog`). */
  readonly checkpoints?: VerifyAuditLogOptions['checkpoints'];
  /** Public key(s) for `checkpoints`. */
  readonly publicKey?: VerifyAuditLogOptions['publicKey'];
  /**
   * How much of the chain to verify before appending. `tail` (the default): from the newest of
   * `checkpoints` on, whose signed hash vouches for the events before it — constant start-up at any log
   * size (`verifyAuditLogFromCheckpoint`); the whole log when no checkpoint is given. `full`: every line.
   */
  readonly verify?: 'tail' | 'full';
  /** Longest line an append may write, in bytes. Default 1 MiB, at most 4 MiB. */
  readonly maxLineBytes?: number;
  /** How long an append waits for another live process's lock. Default 45 s. */
  readonly lockTimeoutMs?: number;
  /** Age after which a lock is stale even if its holder lives. Default 30 s. */
  readonly lockStaleMs?: number;
  /** Permission bits of a newly created log. Default 0o644. */
  readonly fileMode?: number;
}

/**
 * Opens (creating if needed) the hash-chained audit log at `path` for appending. The chain is verified
 * first, streaming — from the newest signed checkpoint on, or whole (`verify`); a log that does not verify
 * is refused with `AuditChainError` naming line, seq and reason — snodo never appends onto, or repairs, a
 * broken chain. A torn last line left by a crash
 * is detected here and followed by a `log-recover` event.
 */
export async function openAuditLog(path: string, options: OpenAuditLogOptions = {}): Promise<AuditLog> {
  const redactor = new Redactor({
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    ...(options.secretKeys === undefined ? {} : { secretKeys: options.secretKeys }),
  });
  const actor = options.actor ?? 'snodo';
  const maxLineBytes = options.maxLineBytes ?? 1024 * 1024;
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1024 || maxLineBytes > MAX_LINE_BYTES) {
    throw new AuditOptionsError({
      option: 'maxLineBytes',
      problem: `${maxLineBytes} is outside 1024..${MAX_LINE_BYTES}`,
      fix: 'Keep large outputs out of events: store them as files and log their digest.',
    });
  }
  if (!existsSync(path)) {
    if (options.create === false) {
      throw new AuditFileError({ path, cause: new Error('the log does not exist') });
    }
    if (options.repository === undefined) {
      throw new AuditOptionsError({
        option: 'repository',
        problem: 'a new audit log needs the repository identity for its genesis event',
        fix: 'Pass { repository: { root_commits: [...], path } } to openAuditLog.',
      });
    }
    createLogFile(path, {
      repository: prepareEventData(options.repository, redactor),
      createdBy: options.createdBy ?? '@snodo/audit',
      actor,
      mode: options.fileMode ?? 0o644,
    });
  }
  const descriptor = openSync(path, 'a+');
  try {
    const verifyOptions = {
      ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints }),
      ...(options.publicKey === undefined ? {} : { publicKey: options.publicKey }),
    };
    const verification =
      options.verify === 'full'
        ? await verifyAuditLog(path, verifyOptions)
        : await verifyAuditLogFromCheckpoint(path, verifyOptions);
    if (!verification.ok || verification.failure !== undefined || verification.logId === undefined) {
      throw new AuditChainError({
        path,
        failure: verification.failure ?? { code: 'E_GENESIS', reason: 'the log has no genesis event' },
      });
    }
    const log = new AuditLog(path, descriptor, verification.logId, verification, redactor, {
      actor,
      maxLineBytes,
      lock: { timeoutMs: options.lockTimeoutMs ?? 45_000, staleMs: options.lockStaleMs ?? 30_000 },
    });
    await log.head({ recover: true });
    return log;
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}
