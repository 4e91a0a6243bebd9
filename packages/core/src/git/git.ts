import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
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
  // snodo's own commits must not start `git maintenance` or a gc in the user's repository mid-run.
  '-c',
  'maintenance.auto=false',
  '-c',
  'gc.auto=0',
];

let resolvedGit: string | undefined;

/**
 * The git executable, found on PATH once per process. Spawning by absolute path avoids a PATH search
 * (one failed exec per PATH entry) on each of the several dozen git calls a run makes.
 */
function gitExecutable(): string {
  if (resolvedGit !== undefined) return resolvedGit;
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, 'git');
    try {
      accessSync(candidate, constants.X_OK);
      resolvedGit = candidate;
      return candidate;
    } catch {
      // not here
    }
  }
  return 'git';
}

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
  // NOTE: plain child_process rather than execa: a run makes dozens of short git calls and execa's
  // per-call overhead (about 9 ms here) dominated a whole --mock run.
  const child = spawn(gitExecutable(), argv, {
    cwd: options.cwd,
    env: gitEnvironment({ readOnly: options.readOnly ?? false, extra: options.env ?? {} }),
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const stdoutChunks: Buffer[] = [];
  const stderrChunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdoutChunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderrChunks.push(chunk));
  if (options.input !== undefined) {
    // git may exit before reading all of stdin (e.g. on an error); that must not crash snodo.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);
  }
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  const stdout = Buffer.concat(stdoutChunks).toString('utf8');
  const stderr = Buffer.concat(stderrChunks).toString('utf8').trim();
  if (exit.code === null) {
    throw new GitCommandError({
      args,
      cwd: options.cwd,
      exitCode: undefined,
      stderr: stderr || exit.error?.message || 'git did not start',
      cause: exit.error,
    });
  }
  if (exit.code !== 0 && !options.allowFailure) {
    throw new GitCommandError({ args, cwd: options.cwd, exitCode: exit.code, stderr });
  }
  return { stdout, stderr, exitCode: exit.code };
}
