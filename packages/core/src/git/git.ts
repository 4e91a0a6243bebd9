import { runGit } from '@snodo/coder-sdk/git';

// The runner and its rules live in @snodo/coder-sdk (src/git/): one set of flags and one environment for
// core, the SDK's base classes and the adapters.
export { gitEnvironment, hardeningArguments } from '@snodo/coder-sdk/git';

/** Options of one `git()` call. */
export interface GitOptions {
  /** The directory git runs in; git discovers the repository from it. Required so no call depends on snodo's own cwd. */
  readonly cwd: string;
  /** Extra environment variables (applied after scrubbing; `undefined` removes one), e.g. a commit identity. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Text written to git's stdin (commit messages, `--stdin` lists). Without it stdin is closed. */
  readonly input?: string;
  /** Return the result on a non-zero exit instead of throwing `GitCommandError` (for probes such as `merge-base --is-ancestor`). */
  readonly allowFailure?: boolean;
  /** A read that must not take optional locks (`GIT_OPTIONAL_LOCKS=0`), so polling never blocks an agent's commit. */
  readonly readOnly?: boolean;
}

/** What a git command produced. */
export interface GitResult {
  /** stdout exactly as git wrote it (not trimmed: patches need their final newline). */
  readonly stdout: string;
  /** stderr, trimmed. */
  readonly stderr: string;
  /** The exit code. */
  readonly exitCode: number;
}

/**
 * Run git with an argv array, snodo's hardening flags and a scrubbed environment: the SDK's `runGit` under
 * the name and options core's many call sites use. Throws `GitCommandError` (with git's stderr) on a
 * non-zero exit unless `allowFailure`, and always when git cannot start.
 */
export function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  return runGit(args, {
    cwd: options.cwd,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.allowFailure ? { allowedExitCodes: 'any' as const } : {}),
    ...(options.readOnly ? { readOnly: true } : {}),
  });
}
