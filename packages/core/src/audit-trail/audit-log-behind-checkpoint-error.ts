import type { AuditVerifyFailure } from '@snodo/audit';
import { SnodoError } from '@snodo/coder-sdk';

const name = 'AuditLogBehindCheckpointError';
const marker = 'snodo.error.AUDIT_LOG_BEHIND_CHECKPOINT';
const symbol = Symbol.for(marker);

/**
 * The audit log does not reach, or no longer matches, the newest signed checkpoint snodo holds for it:
 * its tail was cut off (`E_TRUNCATED`) or anchored events were rewritten (`E_CKPT_MISMATCH`). Appending
 * would make `snodo run` continue from the shorter log, so the run is refused before anything happens.
 */
export class AuditLogBehindCheckpointError extends SnodoError {
  private readonly [symbol] = true;

  /** The log file. */
  readonly path: string;
  /** What the verification found, as `verifyAuditLog` reports it. */
  readonly failure: AuditVerifyFailure;

  constructor(options: { path: string; failure: AuditVerifyFailure; cause?: unknown }) {
    super('AUDIT_LOG_BEHIND_CHECKPOINT', {
      message:
        `The audit log ${options.path} is behind its newest signed checkpoint: ${options.failure.code} ` +
        `${options.failure.reason}. Nothing ran and nothing was appended. See the whole picture with ` +
        '`snodo audit verify`; if the lost events cannot be restored, start a new log, recorded as such, ' +
        'with `snodo audit reset --reason "<why>"`.',
      cause: options.cause,
    });
    this.name = name;
    this.path = options.path;
    this.failure = options.failure;
  }

  static override isInstance(value: unknown): value is AuditLogBehindCheckpointError {
    return SnodoError.hasMarker(value, marker);
  }
}
