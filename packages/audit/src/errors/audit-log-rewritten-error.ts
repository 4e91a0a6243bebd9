import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.AUDIT_LOG_REWRITTEN';

/**
 * The log file is behind what this handle last wrote or saw: its tail was cut (`truncated`), or the lines
 * it saw were rewritten beneath it while the file kept its inode (`rewritten`). Appending would continue
 * from the shorter or altered tail and make the loss look continuous, so the handle refuses every later
 * append (sticky) until the log is inspected with `snodo audit verify`.
 */
export class AuditLogRewrittenError extends SnodoError<'AUDIT_LOG_REWRITTEN'> {
  /** The log file. */
  readonly path: string;
  /** `truncated`: events this handle saw are gone; `rewritten`: they are there with other bytes. */
  readonly kind: 'truncated' | 'rewritten';
  /** The first seq that was lost or changed. */
  readonly fromSeq: number;
  /** The last seq this handle saw. */
  readonly toSeq: number;

  constructor(options: { path: string; kind: 'truncated' | 'rewritten'; fromSeq: number; toSeq: number }) {
    const range =
      options.fromSeq === options.toSeq
        ? `event ${options.fromSeq}`
        : `events ${options.fromSeq}..${options.toSeq}`;
    const what =
      options.kind === 'truncated'
        ? `lost ${range} since this process appended or read them (its tail was cut)`
        : `no longer holds ${range} as this process appended or read them (the file was rewritten in place)`;
    super('AUDIT_LOG_REWRITTEN', {
      message:
        `The audit log ${options.path} ${what}. Nothing was appended, and this process appends nothing more. ` +
        'Run `snodo audit verify` to see what changed.',
    });
    this.name = 'AuditLogRewrittenError';
    SnodoError.mark(this, marker);
    this.path = options.path;
    this.kind = options.kind;
    this.fromSeq = options.fromSeq;
    this.toSeq = options.toSeq;
  }

  static override isInstance(value: unknown): value is AuditLogRewrittenError {
    return SnodoError.hasMarker(value, marker);
  }
}
