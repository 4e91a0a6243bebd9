import { simpleGitClient } from './simple-git-client.js';

/** The git snodo runs, as `gitVersion` reads it. */
export interface GitVersion {
  /** `false` when no git could be started (not on PATH); the numbers are then 0. */
  readonly installed: boolean;
  readonly major: number;
  readonly minor: number;
  /** A number, or git's text where it is not one (`2.45.rc0`). */
  readonly patch: number | string;
  /** What git prints in parentheses after the number (`Apple Git-154`), or `''`. */
  readonly agent: string;
  /** How to show it: `2.39.5`, or `2.39.5 (Apple Git-154)`. */
  readonly text: string;
}

/**
 * The version of the git executable snodo runs (the one `runGit` uses), parsed by simple-git's version
 * parser, or `installed: false` when there is none. For `snodo doctor` and checks of git's minimum
 * version (snodo needs ≥ 2.38 for `merge-tree --write-tree`).
 */
export async function gitVersion(options: { cwd: string; timeoutMs?: number }): Promise<GitVersion> {
  const client = await simpleGitClient({ cwd: options.cwd, readOnly: true, timeoutMs: options.timeoutMs });
  const { installed, major, minor, patch, agent } = await client.version();
  const number = `${major}.${minor}.${patch}`;
  return { installed, major, minor, patch, agent, text: agent === '' ? number : `${number} (${agent})` };
}
