import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds a lock, as its file says. */
export interface LockHolder {
  /** The holder's process id. */
  readonly pid: number;
  /** Its worker thread (0 for the main thread); `undefined` in a lock written by an older snodo. */
  readonly thread: number | undefined;
  /** When it took the lock, epoch milliseconds, when the file says. */
  readonly takenAt: number | undefined;
  /** The token only the holder knows; it removes the lock only while the file still carries it. */
  readonly token: string;
  /** `true` when the holder runs on this machine: only then can its liveness be checked. */
  readonly onThisHost: boolean;
  /** Who took it (`job j_…`), for the message a waiting user reads; empty when nobody said. */
  readonly owner: string;
}

let thisHostId: string | undefined;

/**
 * This machine's id in lock files: 8 hex digits of a hash of its host name, so every lock file stays
 * under 60 bytes whatever the host is called (see `formatLockContent`).
 */
export function hostId(name = hostname()): string {
  if (name === hostname() && thisHostId !== undefined) return thisHostId;
  const id = createHash('sha256').update(name).digest('hex').slice(0, 8);
  if (name === hostname()) thisHostId = id;
  return id;
}

/**
 * One line: `<pid> <thread> <epoch ms, base 36> <token> <host id>[ <owner>]`. NOTE: ext4 stores a symlink
 * target under 60 bytes inside the inode ("fast symlink"); a longer one costs a data block and made each
 * lock about ten times slower (measured: 95 µs → 920 µs per lock and release), hence the terse format and
 * the hashed host. A lock with an owner (core's, taken a few times per job) may be longer.
 */
export function formatLockContent(holder: {
  readonly pid: number;
  readonly thread: number;
  readonly takenAt: number;
  readonly token: string;
  readonly owner: string;
}): string {
  const owner = holder.owner.replace(/\s+/g, ' ').trim();
  const line = `${holder.pid} ${holder.thread} ${holder.takenAt.toString(36)} ${holder.token} ${hostId()}`;
  return owner === '' ? line : `${line} ${owner}`;
}

/**
 * Reads a lock's content, as written by `formatLockContent`, by the audit log's lock of earlier versions
 * (the same line without host id: it was only ever taken on this machine) or by core's lock of earlier
 * versions (JSON with `pid`, `hostname`, `token`), so a lock left by the previous snodo is still understood.
 */
export function parseLockContent(raw: string): LockHolder | undefined {
  if (raw.trimStart().startsWith('{')) return parseJsonContent(raw);
  const match = /^(\d+) (\d+) ([0-9a-z]+) ([0-9a-f]+)(?: ([0-9a-f]{8})(?: (.*))?)?\s*$/.exec(raw);
  if (match === null) return undefined;
  return {
    pid: Number(match[1]),
    thread: Number(match[2]),
    takenAt: Number.parseInt(match[3]!, 36),
    token: match[4]!,
    onThisHost: match[5] === undefined || match[5] === hostId(),
    owner: match[6] ?? '',
  };
}

function parseJsonContent(raw: string): LockHolder | undefined {
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if (typeof value.pid !== 'number' || typeof value.hostname !== 'string') return undefined;
    if (typeof value.token !== 'string') return undefined;
    const takenAt = typeof value.acquiredAt === 'string' ? Date.parse(value.acquiredAt) : Number.NaN;
    return {
      pid: value.pid,
      thread: undefined,
      takenAt: Number.isNaN(takenAt) ? undefined : takenAt,
      token: value.token,
      onThisHost: value.hostname === hostname(),
      owner: typeof value.owner === 'string' ? value.owner : '',
    };
  } catch {
    return undefined;
  }
}

/** The lock's raw content: a symlink's target, or a (fallback) lock file's text. */
export function readLockRaw(lockPath: string, isSymlink: boolean): string {
  return isSymlink ? readlinkSync(lockPath) : readFileSync(lockPath, 'utf8');
}

/** The current holder of `lockPath`, or `undefined` when there is none or its file cannot be read. */
export function readLockHolder(lockPath: string): LockHolder | undefined {
  try {
    return parseLockContent(readLockRaw(lockPath, lstatSync(lockPath).isSymbolicLink()));
  } catch {
    return undefined;
  }
}

/** A holder in words for a message: `snodo process 4242 (job j_…), since 2026-01-01T10:00:00.000Z`. */
export function describeLockHolder(holder: LockHolder | undefined): string {
  if (holder === undefined) return 'another process';
  const where = holder.onThisHost ? '' : ' on another machine';
  const owner = holder.owner === '' ? '' : ` (${holder.owner})`;
  const since = holder.takenAt === undefined ? '' : `, since ${new Date(holder.takenAt).toISOString()}`;
  return `snodo process ${holder.pid}${where}${owner}${since}`;
}
