import { randomBytes } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { threadId } from 'node:worker_threads';
import { AuditLockTimeoutError } from './errors/audit-lock-timeout-error.js';

/** Options of `withLockFile`. */
export interface LockFileOptions {
  /** Give up (`AuditLockTimeoutError`) after waiting this long for a live holder. */
  readonly timeoutMs: number;
  /**
   * A lock older than this is stale even when its holder is alive (hung, or a reused pid). Critical
   * sections take microseconds, so this is only a backstop; a dead holder is detected at once.
   */
  readonly staleMs: number;
}

/**
 * What a lock holds: who took it, when, and a nonce that tells two holders apart. Serialised as
 * `<pid> <thread> <epoch ms, base 36> <nonce>`, about 35 bytes.
 */
interface LockContent {
  readonly pid: number;
  readonly thread: number;
  /** When it was taken, epoch milliseconds. */
  readonly takenAt: number;
  readonly nonce: string;
}

/** How long a `.break` guard may live before it is itself considered abandoned. */
const breakGuardStaleMs = 5_000;
/**
 * How long an empty lock file (fallback mode only: created, content not yet written) counts as held. The
 * gap between the two calls is microseconds; a holder killed inside it must not block others for the
 * whole stale threshold.
 */
const unwrittenGraceMs = 2_000;
/** Errors that mean "this filesystem cannot hold a symlink": fall back to an `O_EXCL` file. */
const noSymlinks = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
let symlinksWork = process.platform !== 'win32';

/**
 * Runs `section` while holding an exclusive lock file, across processes. The lock holds pid, thread,
 * timestamp and a nonce, and is created atomically *with* that content: it is a symlink whose target is
 * the content (creating a symlink fails if the name exists, like `O_EXCL`), so a holder killed at any
 * instant leaves either no lock or a complete one naming a dead pid. Where symlinks are unavailable it
 * falls back to an `O_EXCL` file written right after creation. `section` must be synchronous: acquisition,
 * the section and the release then happen in one turn of the event loop, which is what lets a lock file
 * naming this very pid and thread be recognised as a leftover (of a process that had our pid before).
 *
 * Stale locks (dead holder, or older than `staleMs`) are broken under a second `O_EXCL` guard
 * (`<lock>.break`), re-checked under it, so two waiters can never both delete a lock and one of them
 * delete the fresh lock of a third process. Waits back off from 1 ms to 20 ms with jitter.
 */
export async function withLockFile<T>(
  lockPath: string,
  options: LockFileOptions,
  section: () => T,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const nonce = tryCreate(lockPath);
    if (nonce !== undefined) {
      const acquired = Date.now();
      try {
        return section();
      } finally {
        release(lockPath, nonce, Date.now() - acquired < options.staleMs / 2);
      }
    }
    if (breakIfStale(lockPath, options.staleMs)) continue;
    if (Date.now() - started >= options.timeoutMs) {
      throw new AuditLockTimeoutError({
        lockPath,
        holderPid: readContent(lockPath)?.pid,
        waitedMs: Date.now() - started,
      });
    }
    await sleep(Math.min(1 + attempt, 20) + Math.random());
  }
}

/** Creates the lock; returns its nonce, or `undefined` when another holder has it. */
function tryCreate(lockPath: string): string | undefined {
  const nonce = randomBytes(8).toString('hex');
  // NOTE: ext4 stores a symlink target under 60 bytes inside the inode ("fast symlink"); a longer one
  // costs a data block and made each lock several times slower, hence this terse format.
  const text = `${process.pid} ${threadId} ${Date.now().toString(36)} ${nonce}`;
  if (symlinksWork) {
    try {
      symlinkSync(text, lockPath);
      return nonce;
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
  return nonce;
}

/**
 * Removes our lock. When we held it for less than half the stale threshold nobody can have broken it, so
 * it is unlinked directly; otherwise only if it still carries our nonce.
 */
function release(lockPath: string, nonce: string, certainlyOurs: boolean): void {
  if (!certainlyOurs && readContent(lockPath)?.nonce !== nonce) return;
  try {
    unlinkSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Breaks the lock if it is stale; returns true when it did (the caller retries at once). */
function breakIfStale(lockPath: string, staleMs: number): boolean {
  const seen = snapshot(lockPath);
  if (seen === undefined) return true; // released meanwhile
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
  readonly content: LockContent | undefined;
  readonly ageMs: number;
}

function snapshot(lockPath: string): LockSnapshot | undefined {
  try {
    const stats = lstatSync(lockPath);
    const raw = readRaw(lockPath, stats.isSymbolicLink());
    return {
      key: `${stats.ino}:${stats.mtimeMs}:${raw}`,
      content: parseContent(raw),
      ageMs: Date.now() - stats.mtimeMs,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The lock's content: a symlink's target, or a (fallback) lock file's text. */
function readRaw(lockPath: string, isSymlink: boolean): string {
  return isSymlink ? readlinkSync(lockPath) : readFileSync(lockPath, 'utf8');
}

function isStale(seen: LockSnapshot, staleMs: number): boolean {
  if (seen.ageMs > staleMs) return true;
  const content = seen.content;
  // No readable content: a fallback lock file between create and write; its holder gets a short grace.
  if (content === undefined) return seen.ageMs > Math.min(unwrittenGraceMs, staleMs);
  if (content.pid === process.pid) {
    // Our own sections never span an await, so a lock naming our pid and thread is a leftover.
    return content.thread === threadId;
  }
  return !isAlive(content.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readContent(lockPath: string): LockContent | undefined {
  try {
    return parseContent(readRaw(lockPath, lstatSync(lockPath).isSymbolicLink()));
  } catch {
    return undefined;
  }
}

function parseContent(raw: string): LockContent | undefined {
  const match = /^(\d+) (\d+) ([0-9a-z]+) ([0-9a-f]+)\s*$/.exec(raw);
  if (match === null) return undefined;
  return {
    pid: Number(match[1]),
    thread: Number(match[2]),
    takenAt: Number.parseInt(match[3]!, 36),
    nonce: match[4]!,
  };
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

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
