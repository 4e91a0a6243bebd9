import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.AUDIT_WRITE_FAILED';

/**
 * A write to the audit log did not complete: the disk took fewer bytes than the line (a torn line, which
 * the next writer recovers), the file was replaced or removed since it was opened, or the handle is closed.
 */
export class AuditWriteError extends SnodoError<'AUDIT_WRITE_FAILED'> {
  /** The log file. */
  readonly path: string;
  /** `true` when the handle stays unusable (the file was replaced); a short write is not sticky. */
  readonly sticky: boolean;

  constructor(options: { path: string; problem: string; fix: string; cause?: unknown; sticky?: boolean }) {
    super('AUDIT_WRITE_FAILED', {
      message: `Could not write to the audit log ${options.path}: ${options.problem}. ${options.fix}`,
      cause: options.cause,
    });
    this.name = 'AuditWriteError';
    SnodoError.mark(this, marker);
    this.path = options.path;
    this.sticky = options.sticky ?? false;
  }

  static override isInstance(value: unknown): value is AuditWriteError {
    return SnodoError.hasMarker(value, marker);
  }
}
