import { execa } from 'execa';
import { GitCommandError } from './git-command-error.js';
import { gitEnvironment } from './git-environment.js';

/**
 * Configuration every snodo git command carries. Worktrees share the main repository's hooks and config,
 * so an agent can plant a hook or an fsmonitor command that would run the next time snodo calls git; these
 * overrides make sure snodo's own git calls never execute anything from the repository.
 */
export const hardeningArguments: readonly string[] = [
  '--no-pager',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'color.ui=false',
  // NOTE: a user's commit.gpgSign would make snodo's own commits wait on a pinentry prompt that nobody
  // sees. snodo's commits are attested by its signed audit checkpoints instead.
  '-c',
  'commit.gpgSign=false',
];

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
 * Run git with an argv array, snodo's hardening flags and a scrubbed environment. The one way @snodo/core
 * talks to git. Throws `GitCommandError` (with git's stderr) on a non-zero exit unless `allowFailure`, and
 * always when git cannot start.
 */
export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const argv = [...hardeningArguments, ...args];
  const result = await execa('git', argv, {
    cwd: options.cwd,
    env: gitEnvironment({ readOnly: options.readOnly ?? false, extra: options.env ?? {} }),
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
    maxBuffer: 512 * 1024 * 1024,
  });
  const stderr = typeof result.stderr === 'string' ? result.stderr.trim() : '';
  const stdout = typeof result.stdout === 'string' ? result.stdout : '';
  if (result.exitCode === undefined) {
    throw new GitCommandError({
      args,
      cwd: options.cwd,
      exitCode: undefined,
      stderr: stderr || result.shortMessage || 'git did not start',
      cause: result.cause,
    });
  }
  if (result.exitCode !== 0 && !options.allowFailure) {
    throw new GitCommandError({ args, cwd: options.cwd, exitCode: result.exitCode, stderr });
  }
  return { stdout, stderr, exitCode: result.exitCode };
}
