import { spawnSync } from 'node:child_process';
import os from 'node:os';

/**
 * The environment of the suite's own git commands: the machine's global and system git config ignored
 * (identity, hooks, signing), no prompts, and none of the `GIT_DIR`-style variables a git hook running the
 * tests would leak in.
 */
function gitEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Conformance Setup',
    GIT_AUTHOR_EMAIL: 'setup@conformance.invalid',
    GIT_COMMITTER_NAME: 'Conformance Setup',
    GIT_COMMITTER_EMAIL: 'setup@conformance.invalid',
  };
  for (const name of [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_COMMON_DIR',
    'GIT_OBJECT_DIRECTORY',
  ]) {
    delete environment[name];
  }
  return environment;
}

/** What a git command printed and how it ended. */
export interface SandboxGitResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs git in `cwd` and returns how it ended, whatever the exit code. */
export function tryGit(args: readonly string[], cwd: string): SandboxGitResult {
  const result = spawnSync('git', [...args], { cwd, env: gitEnvironment(), encoding: 'utf8' });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs git in `cwd` and returns stdout; throws with git's stderr when it fails. */
export function git(args: readonly string[], cwd: string): string {
  const result = tryGit(args, cwd);
  if (result.status !== 0) {
    throw new Error(
      `git ${args.join(' ')} failed in ${cwd} (exit ${result.status}): ${result.stderr.trim()}`,
    );
  }
  return result.stdout;
}
