import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long to wait for a lock and when a held lock counts as abandoned. */
export interface FileLockOptions {
  /** Give up after this long, in milliseconds. Default 30 s. */
  readonly timeoutMs?: number;
  /** A lock older than this whose holder cannot be checked is treated as stale. Default 10 minutes. */
  readonly staleMs?: number;
  /** What the lock protects, for the timeout message ("the job state", "merges into main"). */
  readonly purpose?: string;
}

/** A held lock. `release()` is idempotent. */
export interface FileLock {
  readonly path: string;
  release(): void;
}

function holderIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(path: string, staleMs: number): boolean {
  try {
    const [pidText] = readFileSync(path, 'utf8').split('\n');
    const pid = Number(pidText);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) return !holderIsAlive(pid);
    return Date.now() - statSync(path).mtimeMs > staleMs;
  } catch {
    // The holder released it between our failed create and this read: not stale, just retry.
    return false;
  }
}

/**
 * Takes an exclusive cross-process lock by creating `path` with O_EXCL. The file holds the holder's pid,
 * so a lock left by a crashed process (pid gone) is broken and taken over instead of blocking forever.
 *
 * NOTE: O_EXCL creation is atomic on local POSIX filesystems, not on every network filesystem.
 */
export async function acquireFileLock(path: string, options: FileLockOptions = {}): Promise<FileLock> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const staleMs = options.staleMs ?? 10 * 60_000;
  const deadline = Date.now() + timeoutMs;
  let delayMs = 2;
  for (;;) {
    try {
      const descriptor = openSync(path, 'wx', 0o600);
      writeSync(descriptor, `${process.pid}\n${new Date().toISOString()}\n`);
      closeSync(descriptor);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isStale(path, staleMs)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for the lock on ${options.purpose ?? path} (${path}). ` +
          'Another snodo process holds it; if none is running, delete the lock file.',
      );
    }
    await sleep(delayMs);
    delayMs = Math.min(delayMs * 2, 25);
  }
}

/** Runs `work` while holding the lock at `path`, releasing it however `work` ends. */
export async function withFileLock<T>(
  path: string,
  work: () => Promise<T> | T,
  options?: FileLockOptions,
): Promise<T> {
  const lock = await acquireFileLock(path, options);
  try {
    return await work();
  } finally {
    lock.release();
  }
}
