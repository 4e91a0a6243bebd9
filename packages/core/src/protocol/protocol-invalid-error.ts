import { SnodoError } from '@snodo/foundation';
import { countSourceIssues, formatSourceIssues, type SourceIssue, sortSourceIssues } from './source-issue.js';

/** One problem of a protocol file (the shape every snodo YAML file's issues share). */
export type ProtocolIssue = SourceIssue;

const marker = 'snodo.error.PROTOCOL_INVALID';

/**
 * The protocol file has syntax errors, schema errors or well-formedness violations. It carries every
 * problem found (warnings included), each with file, line and column, so `snodo run` and
 * `snodo protocol validate` can list them all at once (exit 2).
 */
export class ProtocolInvalidError extends SnodoError<'PROTOCOL_INVALID'> {
  /** The file as the caller named it. */
  readonly file: string;
  /** Every problem, in reading order; at least one has severity `error`. */
  readonly issues: readonly SourceIssue[];

  constructor(options: { file: string; issues: readonly SourceIssue[]; cause?: unknown }) {
    const issues = sortSourceIssues(options.issues);
    super('PROTOCOL_INVALID', {
      message:
        `${options.file} is not a valid snodo protocol (${countSourceIssues(issues)}):\n` +
        `${formatSourceIssues(issues)}\n` +
        'Fix the lines above, then check the file with `snodo protocol validate`.',
      cause: options.cause,
    });
    this.name = 'ProtocolInvalidError';
    SnodoError.mark(this, marker);
    this.file = options.file;
    this.issues = issues;
  }

  /** Only the problems that fail the load. */
  get errors(): readonly SourceIssue[] {
    return this.issues.filter((issue) => issue.severity === 'error');
  }

  static override isInstance(value: unknown): value is ProtocolInvalidError {
    return SnodoError.hasMarker(value, marker);
  }
}
