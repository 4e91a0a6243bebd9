import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.GIT_COMMAND_FAILED';

/** The environment variable that sets how long one git command may run, in seconds (`runGit`). */
export const GIT_TIMEOUT_VARIABLE = 'SNODO_GIT_TIMEOUT_SECONDS';

function formatSeconds(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${milliseconds / 1000} s` : `${(milliseconds / 1000).toFixed(1)} s`;
}

/**
 * A git command snodo ran exited non-zero (or could not start). It carries git's own stderr, the argv and the
 * directory, so the user sees git's explanation instead of a generic "git failed". Thrown by the SDK's
 * `runGit` and by core's git runner.
 */
export class GitCommandError extends SnodoError<'GIT_COMMAND_FAILED'> {
  /** The git arguments, without the `-c` overrides snodo adds. */
  readonly args: readonly string[];
  /** The directory git ran in. */
  readonly cwd: string;
  /** Git's exit code, or `undefined` when git could not start. */
  readonly exitCode: number | undefined;
  /** Git's stderr, trimmed. */
  readonly stderr: string;
  /** Set when git ran longer than its time limit and snodo stopped it: the limit, in milliseconds. */
  readonly timeoutMs: number | undefined;

  constructor(options: {
    args: readonly string[];
    cwd: string;
    exitCode: number | undefined;
    stderr: string;
    /** Git was stopped after running this long (`runGit`'s time limit). */
    timeoutMs?: number | undefined;
    cause?: unknown;
  }) {
    const stderr = options.stderr.trim();
    const command = `git ${options.args.join(' ')}`;
    const shown = command.length > 200 ? `${command.slice(0, 199)}…` : command;
    const what =
      options.timeoutMs !== undefined
        ? `did not finish within ${formatSeconds(options.timeoutMs)} and was stopped, with every process it started ` +
          '(a fetch or push waiting on the network, ssh or a credential helper?); run it there by hand to see ' +
          `where it waits, or give git longer with ${GIT_TIMEOUT_VARIABLE}`
        : options.exitCode === undefined
          ? `could not start (${stderr || 'unknown error'}); check that git ≥ 2.38 is on PATH and the directory exists`
          : `exited with code ${options.exitCode}${stderr === '' ? '' : `: ${stderr}`}; check the repository with \`git status\` there`;
    super('GIT_COMMAND_FAILED', {
      message: `\`${shown}\` in ${options.cwd} ${what}`,
      cause: options.cause,
    });
    this.name = 'GitCommandError';
    SnodoError.mark(this, marker);
    this.args = [...options.args];
    this.cwd = options.cwd;
    this.exitCode = options.exitCode;
    this.stderr = stderr;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(value: unknown): value is GitCommandError {
    return SnodoError.hasMarker(value, marker);
  }
}
