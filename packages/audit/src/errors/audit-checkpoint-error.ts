import { AuditError } from './audit-error.js';

const name = 'AuditCheckpointError';
const marker = 'snodo.error.AUDIT_CHECKPOINT_INVALID';
const symbol = Symbol.for(marker);

/**
 * A serialised checkpoint (a commit trailer, a line of the checkpoint store) cannot be read back: it is not
 * base64url, not JSON, or lacks a field. Signature checks are not this error: `verifyAuditLog` reports
 * those as `E_CKPT_SIG`.
 */
export class AuditCheckpointError extends AuditError {
  private readonly [symbol] = true;

  /** Where the checkpoint came from (`trailer`, or `<store path>:<line>`). */
  readonly source: string;

  constructor(options: { source: string; problem: string; cause?: unknown }) {
    super('AUDIT_CHECKPOINT_INVALID', {
      message:
        `The audit checkpoint from ${options.source} cannot be read: ${options.problem}. ` +
        'It was written by another tool or damaged; verify the log without it and investigate.',
      cause: options.cause,
    });
    this.name = name;
    this.source = options.source;
  }

  static override isInstance(value: unknown): value is AuditCheckpointError {
    return AuditError.hasMarker(value, marker);
  }
}
