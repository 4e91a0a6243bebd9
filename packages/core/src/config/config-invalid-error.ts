import { SnodoError } from '@snodo/coder-sdk';
import {
  countSourceIssues,
  formatSourceIssues,
  type SourceIssue,
  sortSourceIssues,
} from '../protocol/source-issue.js';

const name = 'ConfigInvalidError';
const marker = 'snodo.error.CONFIG_INVALID';
const symbol = Symbol.for(marker);

/**
 * `$SNODO_HOME/config.yml` exists but is not valid YAML or does not match the schema (exit 2). snodo never
 * falls back to defaults for a broken file: a silently ignored key would send a job to the wrong model or
 * without its key. Every problem is listed with file, line and column.
 */
export class ConfigInvalidError extends SnodoError {
  private readonly [symbol] = true;

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
    this.name = name;
    this.file = options.file;
    this.issues = issues;
  }

  static override isInstance(value: unknown): value is ConfigInvalidError {
    return SnodoError.hasMarker(value, marker);
  }
}
