import { spawn, spawnSync } from 'node:child_process';
import { GitCommandError } from '../errors/git-command-error.js';
import { gitExecutable } from './git-executable.js';
import { gitEnvironment, hardeningArguments } from './git-hardening.js';
import { gitSpawnHost, type HostedGitExit } from './git-spawn-host.js';

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

/** The argv and spawn options every git command gets, whichever way it is spawned. */
function invocation(args: readonly string[], options: RunGitOptions) {
  return {
    file: gitExecutable(),
    argv: [...hardeningArguments, ...args],
    spawnOptions: {
      cwd: options.cwd,
      env: gitEnvironment({ readOnly: options.readOnly ?? false, extra: options.env ?? {} }),
    },
  };
}

function isAllowed(exitCode: number, options: RunGitOptions): boolean {
  const allowed = options.allowedExitCodes;
  return exitCode === 0 || allowed === 'any' || (allowed?.includes(exitCode) ?? false);
}

function settle(
  args: readonly string[],
  options: RunGitOptions,
  exit: { code: number | null; error?: Error | undefined; stdout: string; stderr: string },
): RunGitResult {
  const stderr = exit.stderr.trim();
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
 * removed). Throws `GitCommandError` with git's stderr when git exits with a code not in
 * `allowedExitCodes` or cannot start.
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<RunGitResult> {
  const { file, argv, spawnOptions } = invocation(args, options);
  // NOTE: plain child_process rather than execa or simple-git: a run makes dozens of short git calls; execa
  // cost about 9 ms a call here, and simple-git waits 50 ms after every command that prints nothing
  // (bench/git-runner.bench.mjs). Once it is up, a small host process does the spawning, off this event
  // loop (git-spawn-host.ts); until then, and without one, git is spawned from here.
  const host = gitSpawnHost();
  const exit = host
    ? await host.run({ file, args: argv, cwd: spawnOptions.cwd, env: spawnOptions.env, input: options.input })
    : await spawnGit(file, argv, spawnOptions, options.input);
  return settle(args, options, exit);
}

/** Spawns git from this process and gathers what it prints. */
async function spawnGit(
  file: string,
  argv: readonly string[],
  spawnOptions: { cwd: string; env: NodeJS.ProcessEnv },
  input: string | undefined,
): Promise<HostedGitExit> {
  const child = spawn(file, argv, {
    ...spawnOptions,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const stdoutChunks: Buffer[] = [];
  const stderrChunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdoutChunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderrChunks.push(chunk));
  if (input !== undefined) {
    // git may exit before reading all of stdin (e.g. on an error); that must not crash snodo.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  }
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  return {
    ...exit,
    stdout: Buffer.concat(stdoutChunks).toString('utf8'),
    stderr: Buffer.concat(stderrChunks).toString('utf8'),
  };
}

/**
 * `runGit`, blocking: the same argv, flags and environment. Only for interfaces that must stay synchronous
 * (a `DiffContext`'s `readFile`, which predicates call lazily); everything else awaits `runGit`.
 */
export function runGitSync(args: readonly string[], options: RunGitOptions): RunGitResult {
  const { file, argv, spawnOptions } = invocation(args, options);
  const result = spawnSync(file, argv, {
    ...spawnOptions,
    input: options.input,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: Number.POSITIVE_INFINITY,
  });
  return settle(args, options, {
    code: result.error === undefined ? result.status : null,
    error: result.error,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
  });
}
