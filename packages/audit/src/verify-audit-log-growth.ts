import { type FileHandle, open } from 'node:fs/promises';
import type { AuditEvent } from './audit-event.js';
import type { AuditVerifyFailureCode } from './audit-verify-result.js';
import { ChainVerifier } from './chain-verifier.js';
import { AuditFileError } from './errors.js';
import { LineScanner } from './line-scanner.js';
import { readLogTail } from './read-log-tail.js';
import { type AuditLogSnapshot, digestPrefix } from './snapshot-audit-log.js';

/**
 * Why a log did not only grow: `E_LOG_MISSING` (deleted), `E_LOG_REPLACED` (another file, or a new log,
 * at the path), `E_TRUNCATED` (shorter than the snapshot), `E_REWRITTEN` (the snapshot's bytes changed),
 * or a chain code for an appended line that is not a valid next event.
 */
export type AuditLogGrowthFailureCode = AuditVerifyFailureCode;

/** What `verifyAuditLogGrowth` found. */
export type AuditLogGrowth =
  | {
      readonly ok: true;
      /** The valid events appended since the snapshot, in order (recovered torn lines are not events). */
      readonly appended: readonly AuditEvent[];
    }
  | {
      readonly ok: false;
      readonly code: AuditLogGrowthFailureCode;
      /** What changed, in words a user reads ("the audit log lost 12 events (size 40 → 28)"). */
      readonly reason: string;
    };

/**
 * Checks that the log at `path` only grew since `snapshot`: the same file, at least as long, its first
 * `snapshot.size` bytes unchanged, and every line after them a valid event chaining from the snapshot's
 * head (hash recomputed, seq contiguous, `prev` linked; a torn line followed by its `log-recover` is
 * valid). Other jobs append while a coder runs, so growth by valid events is expected; anything else is
 * tampering. Costs one read of the file; never throws for a changed log, only for one it cannot read.
 */
export async function verifyAuditLogGrowth(
  path: string,
  snapshot: AuditLogSnapshot,
): Promise<AuditLogGrowth> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw new AuditFileError({ path, cause });
    if (!snapshot.exists) return { ok: true, appended: [] };
    return {
      ok: false,
      code: 'E_LOG_MISSING',
      reason: `the audit log ${path} was deleted (it held ${eventCount(snapshot)} events)`,
    };
  }
  try {
    if (!snapshot.exists) return await scanFrom(handle, 0, undefined);
    const stats = await handle.stat({ bigint: true });
    if (stats.dev.toString() !== snapshot.device || stats.ino.toString() !== snapshot.inode) {
      return {
        ok: false,
        code: 'E_LOG_REPLACED',
        reason: `the audit log ${path} was replaced by another file (inode ${snapshot.inode} → ${stats.ino})`,
      };
    }
    const size = Number(stats.size);
    if (size < snapshot.size) {
      return { ok: false, code: 'E_TRUNCATED', reason: truncationReason(handle, path, snapshot, size) };
    }
    const prefix = await digestPrefix(handle, snapshot.size);
    if (!prefix.complete || prefix.sha256 !== snapshot.sha256) {
      return {
        ok: false,
        code: 'E_REWRITTEN',
        reason: `the first ${snapshot.size} bytes of the audit log (its ${eventCount(snapshot)} events) were rewritten in place`,
      };
    }
    return await scanFrom(handle, snapshot.headEnd, snapshot);
  } catch (cause) {
    if (typeof (cause as NodeJS.ErrnoException).errno === 'number') throw new AuditFileError({ path, cause });
    throw cause;
  } finally {
    await handle.close();
  }
}

/** Verifies every line from `offset` on, chaining from the snapshot's head (or from genesis). */
async function scanFrom(
  handle: FileHandle,
  offset: number,
  snapshot: AuditLogSnapshot | undefined,
): Promise<AuditLogGrowth> {
  const head = snapshot?.head;
  const verifier = new ChainVerifier(
    [],
    head === undefined ? undefined : { seq: head.seq, hash: head.hash, logId: snapshot?.logId ?? '' },
  );
  const scanner = new LineScanner(handle, undefined, offset);
  const appended: AuditEvent[] = [];
  const onLine = (bytes: Buffer, byteOffset: number, terminated: boolean): void => {
    if (verifier.push(bytes, byteOffset, terminated)) appended.push(verifier.acceptedEvent(bytes));
  };
  while (verifier.failure === undefined && (await scanner.next(onLine))) {
    // Each `next` runs one chunk's lines synchronously.
  }
  verifier.finish(scanner.overlongOffset);
  const failure = verifier.failure;
  if (failure === undefined) return { ok: true, appended };
  const where = [
    failure.seq === undefined ? undefined : `seq ${failure.seq}`,
    failure.byteOffset === undefined ? undefined : `byte ${failure.byteOffset}`,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
  return {
    ok: false,
    code: failure.code,
    reason: `a line added to the audit log${snapshot === undefined ? '' : ' since the snapshot'} is not a valid next event (${where}): ${failure.reason}`,
  };
}

function eventCount(snapshot: AuditLogSnapshot): number {
  return snapshot.head === undefined ? 0 : snapshot.head.seq + 1;
}

function truncationReason(
  handle: FileHandle,
  path: string,
  snapshot: AuditLogSnapshot,
  size: number,
): string {
  const before = eventCount(snapshot);
  let after: number | undefined;
  try {
    after = size === 0 ? 0 : readLogTail(handle.fd, path, size).head.seq + 1;
  } catch {
    after = undefined;
  }
  if (after === undefined) {
    return `the audit log was cut from ${snapshot.size} to ${size} bytes and its last line no longer verifies (it held ${before} events)`;
  }
  return `the audit log lost ${before - after} events (size ${before} → ${after})`;
}
