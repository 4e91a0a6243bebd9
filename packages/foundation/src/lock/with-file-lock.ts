import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, openSync, symlinkSync, unlinkSync, writeSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { LockTimeoutError } from '../errors.js';
import { isProcessAlive } from '../process/process-liveness.js';
import {
  describeLockHolder,
  formatLockContent,
  type LockHolder,
  parseLockContent,
  readLockHolder,
  readLockRaw,
} from './lock-holder.js';

/** What a timed-out wait knew, for the error it throws. */
export interface LockTimeout {
  /** The lock file. */
  readonly lockPath: string;
  /** What the lock protects (`FileLockOptions.purpose`). */
  readonly purpose: string;
  /** Who held it when the wait gave up, when its file could be read. */
  readonly holder: LockHolder | undefined;
  /** How long the wait lasted. */
  readonly waitedMs: number;
}

/** How long to wait for a lock, when to break it, and what to say about it. */
export interface FileLockOptions {
  /** Give up after this long, in milliseconds. Default 30 s. */
  readonly timeoutMs?: number;
  /** The longest pause between two looks while waiting (they start at 1 ms, jittered). Default 20 ms. */
  readonly pollMs?: number;
  /**
   * A lock older than this is broken even when its holder is alive (hung). For locks whose sections take
   * microseconds (the audit log's); without it only a holder that is gone loses its lock.
   */
  readonly staleMs?: number;
  /** What the lock protects, for the timeout message ("landing into this repository"). */
  readonly purpose?: string;
  /** Who takes it (`job j_…`), written into the file so a waiting user sees who holds it. */
  readonly owner?: string;
  /** The error a timed-out wait throws. Default `LockTimeoutError` (`LOCK_TIMEOUT`). */
  readonly timeoutError?: (timeout: LockTimeout) => Error;
  /**
   * Called once when a wait has lasted `waitNoticeMs`, with who holds the lock and its description
   * (`pid 4242, job j_…, taken 3s ago`), so a user is told what the command waits for instead of watching
   * it hang.
   */
  readonly onWait?: (wait: LockWait) => void;
  /** How long a wait lasts before `onWait` is called. Default 1 s: a brief hold is not worth a line. */
  readonly waitNoticeMs?: number;
}

/** What `onWait` is told. */
export interface LockWait {
  /** The lock file. */
  readonly lockPath: string;
  /** What the lock protects (`FileLockOptions.purpose`). */
  readonly purpose: string;
  /** Who holds it, when its file could be read. */
  readonly holder: LockHolder | undefined;
  /** The holder in words, for a message. */
  readonly holderText: string;
  /** How long the wait has lasted so far. */
  readonly waitedMs: number;
}

/** How long a `.break` guard may live before it is itself considered abandoned. */
const breakGuardStaleMs = 5_000;
/**
 * How long a lock file without readable content counts as held: a fallback lock between its creation and
 * its write (microseconds), or one written by something else. A holder killed inside that gap must not
 * block others for long.
 */
const unwrittenGraceMs = 2_000;
/** Errors that mean "this filesystem cannot hold a symlink": fall back to an `O_EXCL` file. */
const noSymlinks = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
let symlinksWork = process.platform !== 'win32';

/**
 * The tokens of the locks this thread holds right now, shared by every copy of this package in it, so a
 * lock naming this very pid and thread is told apart: ours (a section still running, perhaps awaiting) or
 * a leftover of an earlier process that had our pid.
 */
const held = heldLocks();

function heldLocks(): Set<string> {
  const key = Symbol.for('snodo.foundation.held-locks');
  const scope = globalThis as Record<symbol, Set<string> | undefined>;
  const existing = scope[key];
  if (existing !== undefined) return existing;
  const created = new Set<string>();
  scope[key] = created;
  return created;
}

/**
 * Runs `work` while holding an exclusive lock on `lockPath`, across processes and threads, and releases it
 * however `work` ends. The lock is created atomically *with* its content (pid, thread, time, a token, the
 * host): it is a symlink whose target is the content (creating a symlink fails if the name exists, like
 * `O_EXCL`), so a holder killed at any instant leaves either no lock or a complete one. Where symlinks are
 * unavailable it falls back to an `O_EXCL` file written right after creation. Only the holder's token
 * removes the lock.
 *
 * A lock is broken when its holder is gone: a pid no longer running on this machine (a holder on another
 * machine is never judged), a leftover naming this process and thread that no running section owns, an
 * unreadable file past a short grace, or (with `staleMs`) any lock older than that. Breaking happens under
 * a second `O_EXCL` guard (`<lock>.break`) and re-checks the very lock judged (same inode, same bytes), so
 * two waiters never both break it and one of them the fresh lock of a third. Waiting is bounded: after
 * `timeoutMs` the error names the holder and what the lock protects.
 *
 * NOTE: `O_EXCL` and symlink creation are atomic on local POSIX filesystems, not on every network one.
 */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T> | T,
  options: FileLockOptions = {},
): Promise<T> {
  const token = await acquire(lockPath, options);
  const acquired = Date.now();
  try {
    return await work();
  } finally {
    held.delete(token);
    release(
      lockPath,
      token,
      Date.now() - acquired < Math.min(options.staleMs ?? unwrittenGraceMs, unwrittenGraceMs) / 2,
    );
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<string> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 20;
  let noticed = options.onWait === undefined;
  for (let attempt = 0; ; attempt++) {
    const token = tryCreate(lockPath, options.owner ?? '');
    if (token !== undefined) {
      // NOTE: recorded here, in the same synchronous step that created the lock, not after `await acquire`
      // returns: another call in this thread that starts before that continuation runs must already see
      // the lock as a running section of ours, or it judges it a leftover of our pid and breaks it.
      held.add(token);
      return token;
    }
    if (breakIfStale(lockPath, options.staleMs)) continue;
    const waitedMs = Date.now() - started;
    if (!noticed && waitedMs >= (options.waitNoticeMs ?? 1_000)) {
      noticed = true;
      const holder = readLockHolder(lockPath);
      options.onWait?.({
        lockPath,
        purpose: options.purpose ?? 'snodo operation',
        holder,
        holderText: describeLockHolder(holder),
        waitedMs,
      });
    }
    if (waitedMs >= timeoutMs) {
      const timeout = {
        lockPath,
        purpose: options.purpose ?? 'snodo operation',
        holder: readLockHolder(lockPath),
        waitedMs,
      };
      throw (
        options.timeoutError?.(timeout) ??
        new LockTimeoutError({
          lockPath,
          purpose: timeout.purpose,
          holder: describeLockHolder(timeout.holder),
        })
      );
    }
    const pause = Math.min(1 + attempt, pollMs);
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
  }
}

/** Creates the lock; returns its token, or `undefined` when another holder has it. */
function tryCreate(lockPath: string, owner: string): string | undefined {
  const token = randomBytes(8).toString('hex');
  const text = formatLockContent({ pid: process.pid, thread: threadId, takenAt: Date.now(), token, owner });
  if (symlinksWork) {
    try {
      symlinkSync(text, lockPath);
      return token;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return undefined;
      if (!noSymlinks.has(code)) throw error;
      symlinksWork = false;
    }
  }
  let descriptor: number;
  try {
    descriptor = openSync(lockPath, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    writeSync(descriptor, `${text}\n`);
  } finally {
    closeSync(descriptor);
  }
  return token;
}

/**
 * Removes our lock. Held for a moment only, nobody can have broken it (no rule judges a fresh lock of a
 * live holder stale), so it is unlinked directly; otherwise only if it still carries our token.
 */
function release(lockPath: string, token: string, certainlyOurs: boolean): void {
  if (!certainlyOurs && readLockHolder(lockPath)?.token !== token) return;
  unlinkQuietly(lockPath);
}

/** Breaks the lock if it is stale; returns true when it did, or when it is gone (the caller retries). */
function breakIfStale(lockPath: string, staleMs: number | undefined): boolean {
  const seen = snapshot(lockPath);
  if (seen === undefined) return true;
  if (!isStale(seen, staleMs)) return false;
  const guardPath = `${lockPath}.break`;
  let guard: number;
  try {
    guard = openSync(guardPath, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another waiter is breaking it; clear a guard its owner abandoned mid-break.
    const guardAge = ageOf(guardPath);
    if (guardAge !== undefined && guardAge > breakGuardStaleMs) unlinkQuietly(guardPath);
    return false;
  }
  closeSync(guard);
  try {
    const now = snapshot(lockPath);
    // Only the very lock judged stale is removed: same inode, same bytes.
    if (now !== undefined && now.key === seen.key && isStale(now, staleMs)) unlinkQuietly(lockPath);
    return true;
  } finally {
    unlinkQuietly(guardPath);
  }
}

interface LockSnapshot {
  readonly key: string;
  readonly holder: LockHolder | undefined;
  readonly ageMs: number;
}

function snapshot(lockPath: string): LockSnapshot | undefined {
  try {
    const stats = lstatSync(lockPath);
    const raw = readLockRaw(lockPath, stats.isSymbolicLink());
    return {
      key: `${stats.ino}:${stats.mtimeMs}:${raw}`,
      holder: parseLockContent(raw),
      ageMs: Date.now() - stats.mtimeMs,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function isStale(seen: LockSnapshot, staleMs: number | undefined): boolean {
  if (staleMs !== undefined && seen.ageMs > staleMs) return true;
  const holder = seen.holder;
  if (holder === undefined) return seen.ageMs > Math.min(unwrittenGraceMs, staleMs ?? unwrittenGraceMs);
  if (!holder.onThisHost) return false;
  if (holder.pid === process.pid) {
    if (held.has(holder.token)) return false;
    // Not one of our sections: a leftover of an earlier process with our pid, unless another thread of
    // this process holds it (that thread's sections are not in this thread's set).
    return holder.thread === undefined || holder.thread === threadId;
  }
  return !isProcessAlive(holder.pid);
}

function ageOf(path: string): number | undefined {
  try {
    return Date.now() - lstatSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
