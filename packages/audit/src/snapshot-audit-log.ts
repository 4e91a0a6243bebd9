import { createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { AuditFileError } from './errors.js';
import { readLogTail } from './read-log-tail.js';

/**
 * What an audit log looked like at one instant, small enough to keep in memory around a coder's run: the
 * file's identity, its length, a digest of those bytes and the head. `verifyAuditLogGrowth` later checks
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
  /** Lowercase hex SHA-256 of those `size` bytes. */
  readonly sha256: string;
  /** The last complete event at that size. */
  readonly head?: { readonly seq: number; readonly hash: string };
  /** Byte offset just after the head's newline: where appended lines start (a torn fragment included). */
  readonly headEnd: number;
  /** The log id named by the genesis event. */
  readonly logId?: string;
}

const chunkBytes = 1024 * 1024;

/**
 * Takes a snapshot of the log at `path` (see `AuditLogSnapshot`). Reads the file once, streaming, and
 * never takes the log's lock: a line another process is writing at that instant is a torn fragment at
 * the end, which its completion then extends. Throws `AuditChainError` when the last complete line does
 * not verify, `AuditFileError` when the file cannot be read; a missing file is `exists: false`.
 */
export async function snapshotAuditLog(path: string): Promise<AuditLogSnapshot> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
      return { path, exists: false, device: '', inode: '', size: 0, sha256: '', headEnd: 0 };
    }
    throw new AuditFileError({ path, cause });
  }
  try {
    const stats = await handle.stat({ bigint: true });
    const size = Number(stats.size);
    const { sha256, firstLine } = await digestPrefix(handle, size);
    const tail = readLogTail(handle.fd, path, size);
    const logId = logIdOf(firstLine);
    return {
      path,
      exists: true,
      device: stats.dev.toString(),
      inode: stats.ino.toString(),
      size,
      sha256,
      head: { seq: tail.head.seq, hash: tail.head.hash },
      headEnd: tail.headOffset + tail.headLength + 1,
      ...(logId === undefined ? {} : { logId }),
    };
  } finally {
    await handle.close();
  }
}

/** SHA-256 of the first `size` bytes, and the first line (for the log id) when it fits in one chunk. */
export async function digestPrefix(
  handle: FileHandle,
  size: number,
): Promise<{ sha256: string; complete: boolean; firstLine: string | undefined }> {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(size, 1)));
  let firstLine: string | undefined;
  let position = 0;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    if (position === 0) {
      const newline = buffer.subarray(0, bytesRead).indexOf(10);
      if (newline !== -1) firstLine = buffer.subarray(0, newline).toString('utf8');
    }
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return { sha256: hash.digest('hex'), complete: position === size, firstLine };
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
