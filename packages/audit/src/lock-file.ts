import { withFileLock } from '@snodo/foundation';
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
 * Runs `section` while holding the audit log's lock file, across processes: the foundation's one
 * cross-process lock (`withFileLock`: created atomically with its content, broken when its holder is gone,
 * torn states handled), with the stale backstop above and a timeout that says it is the audit log's.
 */
export function withLockFile<T>(lockPath: string, options: LockFileOptions, section: () => T): Promise<T> {
  return withFileLock(lockPath, section, {
    timeoutMs: options.timeoutMs,
    staleMs: options.staleMs,
    purpose: 'append to the audit log',
    timeoutError: ({ holder, waitedMs }) =>
      new AuditLockTimeoutError({ lockPath, holderPid: holder?.pid, waitedMs }),
  });
}
