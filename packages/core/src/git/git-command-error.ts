import { SnodoError } from '@snodo/coder-sdk';

const name = 'GitCommandError';
const marker = 'snodo.error.GIT_COMMAND_FAILED';
const symbol = Symbol.for(marker);

/**
 * A git command that snodo ran exited non-zero (or could not start). It carries git's own stderr, the argv
 * and the directory, so the user sees git's explanation instead of a generic "git failed". Thrown by the
 * shared runner `git()` unless the caller passed `allowFailure`.
 */
export class GitCommandError extends SnodoError {
  private readonly [symbol] = true;

  /** The git arguments after snodo's hardening flags, e.g. `['worktree', 'add', …]`. */
  readonly args: readonly string[];
  /** The directory git ran in. */
  readonly cwd: string;
  /** git's exit code; `undefined` when the process could not start (git not installed). */
  readonly exitCode: number | undefined;
  /** git's stderr, trimmed. */
  readonly stderr: string;

  constructor(options: {
    args: readonly string[];
    cwd: string;
    exitCode: number | undefined;
    stderr: string;
    cause?: unknown;
  }) {
    const stderr = options.stderr.trim();
    const command = `git ${options.args.join(' ')}`;
    const what =
      options.exitCode === undefined
        ? `could not start (${stderr || 'unknown error'}); check that git ≥ 2.38 is on PATH and the directory exists`
        : `exited with code ${options.exitCode}${stderr ? `: ${stderr}` : ''}`;
    super('GIT_COMMAND_FAILED', {
      message: `\`${truncate(command, 200)}\` in ${options.cwd} ${what}`,
      cause: options.cause,
    });
    this.name = name;
    this.args = options.args;
    this.cwd = options.cwd;
    this.exitCode = options.exitCode;
    this.stderr = stderr;
  }

  static override isInstance(value: unknown): value is GitCommandError {
    return SnodoError.hasMarker(value, marker);
  }
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
