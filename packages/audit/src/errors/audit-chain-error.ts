import { SnodoError } from '@snodo/foundation';
import type { AuditVerifyFailure } from '../audit-verify-result.js';

const marker = 'snodo.error.AUDIT_CHAIN_INVALID';

/**
 * The audit log's chain does not verify, so snodo refuses to append to it: appending would make a broken
 * log look continuous. Thrown by `openAuditLog` (full verification) and by `append` (the tail event is
 * re-checked under the lock). Never repaired automatically: a human inspects the log first.
 */
export class AuditChainError extends SnodoError<'AUDIT_CHAIN_INVALID'> {
  /** The log file. */
  readonly path: string;
  /** The first failure, as `verifyAuditLog` reports it (line, seq, byte offset, code, reason). */
  readonly failure: AuditVerifyFailure;

  constructor(options: { path: string; failure: AuditVerifyFailure }) {
    const { failure } = options;
    const where = [
      failure.line === undefined ? undefined : `line ${failure.line}`,
      failure.seq === undefined ? undefined : `seq ${failure.seq}`,
      failure.byteOffset === undefined ? undefined : `byte ${failure.byteOffset}`,
    ]
      .filter((part) => part !== undefined)
      .join(', ');
    super('AUDIT_CHAIN_INVALID', {
      message:
        `The audit log ${options.path} does not verify${where === '' ? '' : ` at ${where}`}: ` +
        `${failure.code} ${failure.reason}. Nothing was appended. Inspect it with ` +
        '`snodo audit verify`; snodo never repairs an audit log by itself.',
    });
    this.name = 'AuditChainError';
    SnodoError.mark(this, marker);
    this.path = options.path;
    this.failure = failure;
  }

  static override isInstance(value: unknown): value is AuditChainError {
    return SnodoError.hasMarker(value, marker);
  }
}
