import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.AUDIT_LOCK_TIMEOUT';

/**
 * Another live process held the audit log's lock file for longer than the caller was willing to wait.
 * A lock whose holder died is broken automatically; this one belongs to a process that is still running.
 */
export class AuditLockTimeoutError extends SnodoError<'AUDIT_LOCK_TIMEOUT'> {
  /** The lock file (`<log>.lock`). */
  readonly lockPath: string;
  /** The holder's pid as written in the lock file, when readable. */
  readonly holderPid: number | undefined;

  constructor(options: { lockPath: string; holderPid: number | undefined; waitedMs: number }) {
    const holder = options.holderPid === undefined ? 'another process' : `process ${options.holderPid}`;
    super('AUDIT_LOCK_TIMEOUT', {
      message:
        `Could not lock the audit log within ${options.waitedMs} ms: ${holder} holds ${options.lockPath}. ` +
        'Wait for it to finish and run again; if no snodo process is running, remove that lock file.',
    });
    this.name = 'AuditLockTimeoutError';
    SnodoError.mark(this, marker);
    this.lockPath = options.lockPath;
    this.holderPid = options.holderPid;
  }

  static override isInstance(value: unknown): value is AuditLockTimeoutError {
    return SnodoError.hasMarker(value, marker);
  }
}
