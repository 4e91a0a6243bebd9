import { SnodoError } from '@snodo/foundation';
import {
  countSourceIssues,
  formatSourceIssues,
  type SourceIssue,
  sortSourceIssues,
} from '../protocol/source-issue.js';

const marker = 'snodo.error.CONFIG_INVALID';

/**
 * `$SNODO_HOME/config.yml` exists but is not valid YAML or does not match the schema (exit 2). snodo never
 * falls back to defaults for a broken file: a silently ignored key would send a job to the wrong model or
 * without its key. Every problem is listed with file, line and column; `issues` holds them for callers
 * (the editor integration, `snodo validate --json`) that show them one by one.
 */
export class ConfigInvalidError extends SnodoError<'CONFIG_INVALID'> {
  /** The config file. */
  readonly file: string;
  /** Every problem, in reading order; at least one is an error. */
  readonly issues: readonly SourceIssue[];

  constructor(options: { file: string; issues: readonly SourceIssue[]; cause?: unknown }) {
    const issues = sortSourceIssues(options.issues);
    super('CONFIG_INVALID', {
      message:
        `${options.file} is not a valid snodo config (${countSourceIssues(issues)}):\n` +
        `${formatSourceIssues(issues)}\n` +
        'Fix the lines above in an editor; `snodo config path` prints where the file is.',
      cause: options.cause,
    });
    this.name = 'ConfigInvalidError';
    SnodoError.mark(this, marker);
    this.file = options.file;
    this.issues = issues;
  }

  static override isInstance(value: unknown): value is ConfigInvalidError {
    return SnodoError.hasMarker(value, marker);
  }
}
