import { GitCommandError } from '../errors/git-command-error.js';
import { gitExecutable } from './git-executable.js';
import { gitEnvironment, hardeningArguments } from './git-hardening.js';
import { gitTimeoutMs } from './git-timeout.js';
import {
  runShortCommand,
  runShortCommandSync,
  type ShortCommand,
  type ShortCommandExit,
} from './run-short-command.js';

/** How `runGit` runs one command. */
export interface RunGitOptions {
  /** The directory git runs in; git discovers the repository from it. Required so no call depends on snodo's own cwd. */
  readonly cwd: string;
  /**
   * Variables set over snodo's environment after the hardening rules (a commit identity); `undefined`
   * removes one. Repository-redirecting variables are already gone.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Text written to git's stdin, then closed (`commit -F -`, `mktree`, `--stdin` lists). Without it stdin is closed. */
  readonly input?: string;
  /**
   * Exit codes that are answers, not failures (`[1]` for `git config --get` of an unset key, or of
   * `merge-base --is-ancestor`); `'any'` returns every exit code. Default: only 0.
   */
  readonly allowedExitCodes?: readonly number[] | 'any';
  /** A read that must not take optional locks (`GIT_OPTIONAL_LOCKS=0`), so polling never blocks an agent's commit. */
  readonly readOnly?: boolean;
  /**
   * Stop git, and every process it started, after this many milliseconds (`GitCommandError` with
   * `timeoutMs`). Default: `SNODO_GIT_TIMEOUT_SECONDS`, else 600 s.
   */
  readonly timeoutMs?: number;
}

/** What git printed and how it exited. */
export interface RunGitResult {
  /** Standard output exactly as git wrote it (not trimmed: patches need their final newline, `-z` output its NULs). */
  readonly stdout: string;
  /** Standard error, trimmed. */
  readonly stderr: string;
  /** The exit code: 0, or one of `allowedExitCodes`. */
  readonly exitCode: number;
}

/** The program, argv, directory, environment and time limit of one git command, however it is run. */
function invocation(args: readonly string[], options: RunGitOptions): ShortCommand {
  return {
    file: gitExecutable(),
    args: [...hardeningArguments, ...args],
    cwd: options.cwd,
    env: gitEnvironment({ readOnly: options.readOnly ?? false, extra: options.env ?? {} }),
    input: options.input,
    timeoutMs: gitTimeoutMs(options.timeoutMs),
  };
}

function isAllowed(exitCode: number, options: RunGitOptions): boolean {
  const allowed = options.allowedExitCodes;
  return exitCode === 0 || allowed === 'any' || (allowed?.includes(exitCode) ?? false);
}

function settle(
  args: readonly string[],
  options: RunGitOptions,
  timeoutMs: number,
  exit: ShortCommandExit,
): RunGitResult {
  const stderr = exit.stderr.trim();
  if (exit.timedOut) {
    throw new GitCommandError({ args, cwd: options.cwd, exitCode: undefined, stderr, timeoutMs });
  }
  if (exit.code === null) {
    throw new GitCommandError({
      args,
      cwd: options.cwd,
      exitCode: undefined,
      stderr: stderr || exit.error?.message || 'git did not start',
      cause: exit.error,
    });
  }
  if (!isAllowed(exit.code, options)) {
    throw new GitCommandError({ args, cwd: options.cwd, exitCode: exit.code, stderr });
  }
  return { stdout: exit.stdout, stderr, exitCode: exit.code };
}

/**
 * Runs `git <args>` for snodo or an adapter author: an argv array (never a shell), git by absolute path,
 * the hardening flags and environment of `git-hardening.ts` (hooks and fsmonitor off, no pager, colour,
 * prompt, editor, signing or auto gc, literal pathspecs, `LC_ALL=C`, repository-redirecting variables
 * removed), and a time limit (`timeoutMs`) after which git and everything it started are killed. Throws
 * `GitCommandError` with git's stderr when git exits with a code not in `allowedExitCodes` or cannot
 * start, and with `timeoutMs` set when it was stopped for running too long.
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<RunGitResult> {
  const command = invocation(args, options);
  // NOTE: plain child_process rather than execa or simple-git: a run makes dozens of short git calls; execa
  // cost about 9 ms a call here, and simple-git waits 50 ms after every command that prints nothing
  // (bench/git-runner.bench.mjs). `runShortCommand` has the spawn host start git off this event loop.
  return settle(args, options, command.timeoutMs, await runShortCommand(command));
}

/**
 * `runGit`, blocking: the same argv, flags, environment and time limit. Only for interfaces that must stay
 * synchronous (a `DiffContext`'s `readFile`, which predicates call lazily); everything else awaits `runGit`.
 */
export function runGitSync(args: readonly string[], options: RunGitOptions): RunGitResult {
  const command = invocation(args, options);
  return settle(args, options, command.timeoutMs, runShortCommandSync(command));
}
