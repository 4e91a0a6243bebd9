import path from 'node:path';
import { LockTimeoutError, type LockWait, withFileLock } from '@snodo/foundation';
import { IsolationFailedError } from './isolation-failed-error.js';

// Exported here too for the isolation area's callers; it lives with the other process checks.

/** The merge lock's file name inside the repository's git common directory. */
export const mergeLockFileName = 'snodo-merge.lock';

/** What the merge lock protects, in the words of a timeout or a wait notice. */
export const mergeLockPurpose = 'landing into this repository';

/** How long a landing waits for the merge lock unless told otherwise. */
export const defaultMergeLockTimeoutMs = 120_000;

/** The merge lock's file: `<git common directory>/snodo-merge.lock`. */
export function mergeLockPath(gitCommonDirectory: string): string {
  return path.join(gitCommonDirectory, mergeLockFileName);
}

/** A timed-out wait for a repository lock, as the `IsolationFailedError` landing throws (naming the holder). */
export function mergeLockTimeoutError(timeout: LockTimeoutError): IsolationFailedError {
  return new IsolationFailedError({ operation: 'land', message: timeout.message, cause: timeout });
}

/** The lock serialising snodo's `git worktree prune` + `add` in one repository. */
export const worktreeLockFileName = 'snodo-worktree.lock';

/** Options of `withRepositoryMergeLock`. */
export interface RepositoryMergeLockOptions {
  /** The repository's git common directory (shared by all worktrees), where the lock file lives. */
  readonly gitCommonDirectory: string;
  /** The job taking the lock, written into the file so a waiting user sees who holds it. */
  readonly jobId: string;
  /** How long to wait for another landing before giving up. Default 120 s. */
  readonly timeoutMs?: number;
  /** How often to look again while waiting. Default 50 ms. */
  readonly pollMs?: number;
  /** Which lock: the merge lock (default) or another per-repository lock such as `worktreeLockFileName`. */
  readonly fileName?: string;
  /** What the lock protects, for the timeout message. Default "landing into this repository". */
  readonly purpose?: string;
  /** Told once when the wait lasts over a second: who holds the lock (see `FileLockOptions.onWait`). */
  readonly onWait?: ((wait: LockWait) => void) | undefined;
}

/**
 * Run `action` while holding the repository's merge lock (or another per-repository lock named by
 * `fileName`), so landings into one repository happen one at a time across processes. The lock itself is
 * `withFileLock`; a timeout becomes an `IsolationFailedError` naming the holder.
 */
export async function withRepositoryMergeLock<T>(
  options: RepositoryMergeLockOptions,
  action: () => Promise<T>,
): Promise<T> {
  const lockPath = path.join(options.gitCommonDirectory, options.fileName ?? mergeLockFileName);
  try {
    return await withFileLock(lockPath, action, {
      timeoutMs: options.timeoutMs ?? defaultMergeLockTimeoutMs,
      pollMs: options.pollMs ?? 50,
      purpose: options.purpose ?? mergeLockPurpose,
      owner: `job ${options.jobId}`,
      ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
    });
  } catch (error) {
    if (LockTimeoutError.isInstance(error)) throw mergeLockTimeoutError(error);
    throw error;
  }
}
