import { GitCommandError } from '../errors/git-command-error.js';

/**
 * Settings snodo forces on every git command it runs itself. A coder could have planted hooks or an
 * fsmonitor command in the shared repository config; snodo's own git calls must never run them.
 * NOTE: a user's commit.gpgSign would make snodo's commit wait on a pinentry prompt nobody sees; snodo's
 * commits are attested by its signed audit checkpoints instead.
 */
const forcedConfiguration = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'commit.gpgSign=false',
];

/**
 * Variables that redirect git to another repository or inject configuration. They leak in from git hooks
 * (snodo started from a hook) and would make snodo's commands act on the wrong index or config.
 */
const droppedVariables = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
]);

/** How `runGit` runs one command. */
export interface RunGitOptions {
  /** The directory git runs in (a worktree, usually). */
  readonly cwd: string;
  /** Variables set over snodo's own environment (repository-redirecting `GIT_*` variables removed). */
  readonly env?: Readonly<Record<string, string>>;
  /** Text written to git's stdin, then closed (`commit -F -`). Without it stdin is empty. */
  readonly input?: string;
  /** Exit codes that are answers, not failures (`[1]` for `git config --get` of an unset key). */
  readonly allowedExitCodes?: readonly number[];
}

/** What git printed and how it exited. */
export interface RunGitResult {
  /** Standard output, untouched (callers trim; `-z` output keeps its NULs). */
  readonly stdout: string;
  /** Standard error. */
  readonly stderr: string;
  /** The exit code: 0, or one of `allowedExitCodes`. */
  readonly exitCode: number;
}

function gitEnvironment(overrides: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || droppedVariables.has(name)) continue;
    if (name.startsWith('GIT_CONFIG_KEY_') || name.startsWith('GIT_CONFIG_VALUE_')) continue;
    environment[name] = value;
  }
  return { ...environment, ...overrides, GIT_TERMINAL_PROMPT: '0' };
}

/**
 * Runs `git <args>` for snodo or an adapter author: an argv array (never a shell), hooks and fsmonitor
 * disabled (`-c core.hooksPath=/dev/null -c core.fsmonitor=false`), no credential prompt
 * (`GIT_TERMINAL_PROMPT=0`), repository-redirecting variables removed. Throws `GitCommandError` with git's
 * stderr when git exits with a code not in `allowedExitCodes` or cannot start.
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<RunGitResult> {
  // Loaded on first use: importing the SDK (and so @snodo/core) should not pay for execa.
  const { execa } = await import('execa');
  const result = await execa('git', [...forcedConfiguration, ...args], {
    cwd: options.cwd,
    env: gitEnvironment(options.env),
    extendEnv: false,
    input: options.input ?? '',
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 256 * 1024 * 1024,
  });
  const exitCode = result.exitCode;
  if (exitCode === 0 || (exitCode !== undefined && options.allowedExitCodes?.includes(exitCode))) {
    return { stdout: result.stdout, stderr: result.stderr, exitCode };
  }
  throw new GitCommandError({
    args,
    cwd: options.cwd,
    exitCode,
    stderr:
      typeof result.stderr === 'string' && result.stderr !== '' ? result.stderr : (result.shortMessage ?? ''),
    cause: result.failed && exitCode === undefined ? result : undefined,
  });
}
