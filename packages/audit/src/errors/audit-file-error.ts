import { AuditError } from './audit-error.js';

const name = 'AuditFileError';
const marker = 'snodo.error.AUDIT_FILE_UNREADABLE';
const symbol = Symbol.for(marker);

/**
 * The audit log (or the checkpoint store) cannot be read at all: it does not exist, is a directory, or
 * access is denied. Distinct from a log that reads but does not verify (`AUDIT_CHAIN_INVALID`), so the
 * CLI can exit 2 (bad input) rather than 1 (tampering).
 */
export class AuditFileError extends AuditError {
  private readonly [symbol] = true;

  /** The file that could not be read. */
  readonly path: string;

  constructor(options: { path: string; cause: unknown }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super('AUDIT_FILE_UNREADABLE', {
      message: `Cannot read ${options.path}: ${reason}. Check the path (the audit log is .snodo/audit.log).`,
      cause: options.cause,
    });
    this.name = name;
    this.path = options.path;
  }

  static override isInstance(value: unknown): value is AuditFileError {
    return AuditError.hasMarker(value, marker);
  }
}
