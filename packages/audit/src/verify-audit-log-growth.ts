import { type FileHandle, open } from 'node:fs/promises';
import type { AuditEvent } from './audit-event.js';
import type { AuditVerifyFailureCode } from './audit-verify-result.js';
import { ChainVerifier } from './chain-verifier.js';
import { AuditFileError } from './errors.js';
import { LineScanner } from './line-scanner.js';
import { readLogTail } from './read-log-tail.js';
import { type AuditLogSnapshot, digestRange, type SnapshotRange } from './snapshot-audit-log.js';
import { mayHaveBeenRewritten } from './written-since.js';

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
 * Checks that the log at `path` only grew since `snapshot`: the same file, at least as long, and every line
 * after the snapshot's head a valid event chaining from it (hash recomputed, seq contiguous, `prev` linked;
 * a torn line followed by its `log-recover` is valid). Other jobs append while a coder runs, so growth by
 * valid events is expected; anything else is tampering. Never throws for a changed log, only for one it
 * cannot read.
 *
 * What was there at the snapshot is checked in proportion to what was written since, not to the log's
 * size. The first line and the last `RECENT_BYTES` must be unchanged byte for byte; they hold the genesis
 * and the head, whose hash chains every event before it, so a rewrite anywhere that keeps the chain valid
 * changes the head and is caught. The bytes between are read again — the whole chain up to the snapshot's
 * head verified — whenever the file may have been written other than by appending: it did not grow but its
 * change time moved, its modification time no longer matches its change time (set back by hand, e.g.
 * `touch -d`), or the snapshot could not rely on the change time. An edit deep in the log that breaks the
 * chain and is then hidden behind appended lines is left to `verifyAuditLog` (`snodo audit verify`),
 * which names its line.
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
    const rewritten =
      (await changedRange(handle, snapshot.firstLine, snapshot)) ??
      (await changedRange(handle, snapshot.lastBytes, snapshot)) ??
      (mayHaveBeenRewritten(snapshot, stats) ? await rewrittenBeforeHead(handle, snapshot) : undefined);
    if (rewritten !== undefined) return { ok: false, code: 'E_REWRITTEN', reason: rewritten };
    return await scanFrom(handle, snapshot.headEnd, snapshot);
  } catch (cause) {
    if (typeof (cause as NodeJS.ErrnoException).errno === 'number') throw new AuditFileError({ path, cause });
    throw cause;
  } finally {
    await handle.close();
  }
}

/** What changed in a range the snapshot digested, or `undefined` when its bytes are the same. */
async function changedRange(
  handle: FileHandle,
  range: SnapshotRange,
  snapshot: AuditLogSnapshot,
): Promise<string | undefined> {
  const now = await digestRange(handle, range.offset, range.length);
  if (now.length === range.length && now.sha256 === range.sha256) return undefined;
  const where =
    range.offset === 0 ? 'its genesis line' : `bytes ${range.offset}..${range.offset + range.length}`;
  return `the audit log was rewritten in place (${where}, among its ${eventCount(snapshot)} events)`;
}

/**
 * Verifies the chain from the genesis to the snapshot's head again, reading the file as if it ended there;
 * what was rewritten when it does not arrive at that head.
 */
async function rewrittenBeforeHead(
  handle: FileHandle,
  snapshot: AuditLogSnapshot,
): Promise<string | undefined> {
  const verifier = new ChainVerifier();
  const scanner = new LineScanner(handle, undefined, 0, snapshot.headEnd);
  const onLine = (bytes: Buffer, byteOffset: number, terminated: boolean): void => {
    verifier.push(bytes, byteOffset, terminated);
  };
  while (verifier.failure === undefined && (await scanner.next(onLine))) {
    // Each `next` runs one chunk's lines synchronously.
  }
  verifier.finish(scanner.overlongOffset);
  const result = verifier.result();
  const head = snapshot.head;
  if (result.ok && result.headSeq === head?.seq && result.headHash === head?.hash) return undefined;
  const at = result.failure?.seq === undefined ? '' : ` at seq ${result.failure.seq}`;
  const why = result.failure === undefined ? '' : `: ${result.failure.reason}`;
  return `the audit log was rewritten in place${at}, among its ${eventCount(snapshot)} events${why}`;
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
