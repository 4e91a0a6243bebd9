import { SnodoError } from './snodo-error.js';

const name = 'GitCommandError';
const marker = 'snodo.error.GIT_COMMAND_FAILED';
const symbol = Symbol.for(marker);

/** A git command run by snodo (through `runGit`) failed. Carries the argv and git's own stderr. */
export class GitCommandError extends SnodoError {
  private readonly [symbol] = true;

  /** The git arguments, without the `-c` overrides snodo adds. */
  readonly args: readonly string[];
  /** The directory git ran in. */
  readonly cwd: string;
  /** Git's exit code, or `undefined` when git could not start. */
  readonly exitCode: number | undefined;
  /** Git's stderr, trimmed. */
  readonly stderr: string;

  constructor(options: {
    args: readonly string[];
    cwd: string;
    exitCode: number | undefined;
    stderr: string;
    cause?: unknown;
  }) {
    const stderr = options.stderr.trim();
    const how = options.exitCode === undefined ? 'could not start' : `exited with code ${options.exitCode}`;
    super('GIT_COMMAND_FAILED', {
      message:
        `\`git ${options.args.join(' ')}\` in ${options.cwd} ${how}${stderr === '' ? '.' : `: ${stderr}`} ` +
        'Check that git is installed and the directory is a healthy repository (`git status` there).',
      cause: options.cause,
    });
    this.name = name;
    this.args = [...options.args];
    this.cwd = options.cwd;
    this.exitCode = options.exitCode;
    this.stderr = stderr;
  }

  static override isInstance(value: unknown): value is GitCommandError {
    return SnodoError.hasMarker(value, marker);
  }
}
