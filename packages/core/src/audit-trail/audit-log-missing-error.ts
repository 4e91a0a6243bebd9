import { SnodoError } from '@snodo/coder-sdk';

const name = 'AuditLogMissingError';
const marker = 'snodo.error.AUDIT_LOG_MISSING';
const symbol = Symbol.for(marker);

/**
 * The repository's audit log is gone while signed anchors for it remain (the checkpoint store in
 * `$SNODO_HOME`, `refs/snodo/audit`). snodo never starts a fresh log over them: that would hide whatever
 * the missing log recorded. A governance halt (exit 1); only `snodo audit reset --reason` starts again.
 */
export class AuditLogMissingError extends SnodoError {
  private readonly [symbol] = true;

  /** Where the log should be. */
  readonly path: string;
  /** The anchors found, in words (`3 checkpoints of log 1f…e2 in $SNODO_HOME/checkpoints/app-…`). */
  readonly anchors: readonly string[];

  constructor(options: { path: string; anchors: readonly string[] }) {
    super('AUDIT_LOG_MISSING', {
      message:
        `The audit log ${options.path} is missing, but this repository has anchors for it: ` +
        `${options.anchors.join('; ')}. snodo does not start a fresh log over them, so nothing ran. ` +
        'See what is wrong with `snodo audit verify`; if the log is lost for good, start a new one, ' +
        'recorded as such, with `snodo audit reset --reason "<why>"`.',
    });
    this.name = name;
    this.path = options.path;
    this.anchors = options.anchors;
  }

  static override isInstance(value: unknown): value is AuditLogMissingError {
    return SnodoError.hasMarker(value, marker);
  }
}
