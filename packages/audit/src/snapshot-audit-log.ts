import { createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuditFileError } from './errors.js';
import { MAX_LINE_BYTES } from './line-scanner.js';
import { readLogTail } from './read-log-tail.js';

/** A byte range of the log and the SHA-256 of its bytes when the snapshot was taken. */
export interface SnapshotRange {
  readonly offset: number;
  readonly length: number;
  readonly sha256: string;
}

/**
 * What an audit log looked like at one instant, small enough to keep in memory around a coder's run and
 * cheap to take at any log size: the file's identity, length and change times, the digests of its first
 * line and of its last bytes (the head event among them), and the head. `verifyAuditLogGrowth` later checks
 * that the log only grew by valid events since.
 */
export interface AuditLogSnapshot {
  /** The log file. */
  readonly path: string;
  /** `false` when there was no log yet; the other fields are then zero or absent. */
  readonly exists: boolean;
  /** Device and inode number (decimal strings: they may exceed 2^53), telling a replaced file apart. */
  readonly device: string;
  readonly inode: string;
  /** Length in bytes. */
  readonly size: number;
  /** Status-change time in nanoseconds (decimal string): set by every write, and no user process sets it back. */
  readonly changed: string;
  /** Modification time in nanoseconds (decimal string): a write sets it to the same instant as `changed`. */
  readonly modified: string;
  /**
   * Whether `changed` lay a filesystem clock tick in the past when the snapshot was taken, so that any
   * later write gives the file another change time. False on a filesystem that keeps whole seconds: an
   * unchanged log is then read again rather than trusted.
   */
  readonly settled: boolean;
  /** The genesis line, newline included. */
  readonly firstLine: SnapshotRange;
  /** The last bytes up to `size`: at least `RECENT_BYTES`, and always the head line and any torn fragment. */
  readonly lastBytes: SnapshotRange;
  /** The last complete event at that size. */
  readonly head?: { readonly seq: number; readonly hash: string };
  /** Byte offset just after the head's newline: where appended lines start (a torn fragment included). */
  readonly headEnd: number;
  /** The log id named by the genesis event. */
  readonly logId?: string;
}

/** How much of the end of the log a snapshot digests: the last few hundred events. */
export const RECENT_BYTES = 256 * 1024;
/**
 * Linux stamps a write with its coarse clock, at most one timer tick (10 ms at the slowest HZ) behind the
 * real time; a change time older than that tick is told apart from any later write's.
 */
const clockTickMs = 10;

const emptyRange: SnapshotRange = { offset: 0, length: 0, sha256: '' };

/**
 * Takes a snapshot of the log at `path` (see `AuditLogSnapshot`). Reads the first line and the last
 * `RECENT_BYTES`, never the whole file, and never takes the log's lock: a line another process is writing at
 * that instant is a torn fragment at the end, which its completion then extends. When the log changed
 * within the last clock tick, waits that tick out (at most 10 ms), so a write after the snapshot cannot
 * share its change time. Throws `AuditChainError` when the last complete line does not verify,
 * `AuditFileError` when the file cannot be read; a missing file is `exists: false`.
 */
export async function snapshotAuditLog(path: string): Promise<AuditLogSnapshot> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
      return {
        path,
        exists: false,
        device: '',
        inode: '',
        size: 0,
        changed: '',
        modified: '',
        settled: true,
        firstLine: emptyRange,
        lastBytes: emptyRange,
        headEnd: 0,
      };
    }
    throw new AuditFileError({ path, cause });
  }
  try {
    const stats = await handle.stat({ bigint: true });
    const size = Number(stats.size);
    const tail = readLogTail(handle.fd, path, size);
    const first = await readFirstLine(handle, size);
    const lastOffset = Math.min(tail.headOffset, Math.max(0, size - RECENT_BYTES));
    const logId = logIdOf(first.text);
    return {
      path,
      exists: true,
      device: stats.dev.toString(),
      inode: stats.ino.toString(),
      size,
      changed: stats.ctimeNs.toString(),
      modified: stats.mtimeNs.toString(),
      settled: await settle(stats.ctimeNs),
      firstLine: first.range,
      lastBytes: await digestRange(handle, lastOffset, size - lastOffset),
      head: { seq: tail.head.seq, hash: tail.head.hash },
      headEnd: tail.headOffset + tail.headLength + 1,
      ...(logId === undefined ? {} : { logId }),
    };
  } finally {
    await handle.close();
  }
}

/** Waits until a write made now would carry a later change time than `changedNs`; false if it cannot. */
async function settle(changedNs: bigint): Promise<boolean> {
  // NOTE: a change time of whole seconds is a filesystem that keeps no more (or a one-in-a-billion
  // instant): a tick of up to two seconds is not worth waiting for at every snapshot.
  if (changedNs % 1_000_000_000n === 0n) return false;
  const ageMs = Date.now() - Number(changedNs / 1_000_000n);
  // A change time ahead of the clock (a clock set back, a file server's clock): nothing to rely on.
  if (ageMs < -1) return false;
  if (ageMs <= clockTickMs) await sleep(clockTickMs - ageMs + 1);
  return true;
}

/** The `length` bytes at `offset` as a range with their SHA-256 (shorter when the file holds fewer). */
export async function digestRange(
  handle: FileHandle,
  offset: number,
  length: number,
): Promise<SnapshotRange> {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(Math.min(1024 * 1024, Math.max(length, 1)));
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, length - done), offset + done);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    done += bytesRead;
  }
  // A file that ends early digests as a different range than it was: its length says so.
  return { offset, length: done, sha256: hash.digest('hex') };
}

/** The genesis line (newline included) as a range, and its text for the log id. */
async function readFirstLine(
  handle: FileHandle,
  size: number,
): Promise<{ range: SnapshotRange; text: string | undefined }> {
  const limit = Math.min(size, MAX_LINE_BYTES + 1);
  // A genesis line is a few hundred bytes; the window widens only for one that is not.
  for (let window = Math.min(limit, 64 * 1024); ; window = Math.min(limit, window * 4)) {
    const buffer = Buffer.allocUnsafe(Math.max(window, 1));
    const { bytesRead } = await handle.read(buffer, 0, window, 0);
    const newline = buffer.subarray(0, bytesRead).indexOf(10);
    if (newline === -1 && window < limit && bytesRead === window) continue;
    const length = newline === -1 ? bytesRead : newline + 1;
    const sha256 = createHash('sha256').update(buffer.subarray(0, length)).digest('hex');
    return {
      range: { offset: 0, length, sha256 },
      text: newline === -1 ? undefined : buffer.subarray(0, newline).toString('utf8'),
    };
  }
}

function logIdOf(firstLine: string | undefined): string | undefined {
  if (firstLine === undefined) return undefined;
  try {
    const logId = (JSON.parse(firstLine) as { data?: { log_id?: unknown } }).data?.log_id;
    return typeof logId === 'string' ? logId : undefined;
  } catch {
    return undefined;
  }
}
