import { SnodoError } from '@snodo/coder-sdk';

const name = 'AuditLogReplacedError';
const marker = 'snodo.error.AUDIT_LOG_REPLACED';
const symbol = Symbol.for(marker);

/**
 * The audit log is not the one this repository's anchors name: its log id differs and no signed reset
 * links the two (a log written from scratch over the real one). A governance halt (exit 1): nothing is
 * appended to it.
 */
export class AuditLogReplacedError extends SnodoError {
  private readonly [symbol] = true;

  /** The log file. */
  readonly path: string;
  /** The id its genesis event names. */
  readonly logId: string;
  /** The other log ids the anchors name. */
  readonly anchoredLogIds: readonly string[];

  constructor(options: { path: string; logId: string; anchoredLogIds: readonly string[]; where: string }) {
    super('AUDIT_LOG_REPLACED', {
      message:
        `The audit log ${options.path} is log ${options.logId}, but ${options.where} name log ` +
        `${options.anchoredLogIds.join(', ')}, and no signed \`snodo audit reset\` links them: the log was ` +
        'replaced. Nothing was appended. See what is wrong with `snodo audit verify`; to start over on ' +
        'purpose, recorded as such, run `snodo audit reset --reason "<why>"`.',
    });
    this.name = name;
    this.path = options.path;
    this.logId = options.logId;
    this.anchoredLogIds = options.anchoredLogIds;
  }

  static override isInstance(value: unknown): value is AuditLogReplacedError {
    return SnodoError.hasMarker(value, marker);
  }
}
