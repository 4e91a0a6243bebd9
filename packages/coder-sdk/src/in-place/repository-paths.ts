import path from 'node:path';
import { runGit } from '../git/run-git.js';

/** Where the parts of a worktree's repository live. */
export interface RepositoryPaths {
  /** The worktree root. */
  readonly workspace: string;
  /** The worktree's own git directory (`<main>/.git/worktrees/<id>` for a linked worktree). */
  readonly gitDirectory: string;
  /** The directory shared by all worktrees (`<main>/.git`): config, hooks, info/exclude. */
  readonly commonDirectory: string;
}

/**
 * Asks git where the worktree's git directories are. `--git-common-dir` matters because a linked
 * worktree's hooks and config are the main repository's.
 */
export async function resolveRepositoryPaths(workspace: string): Promise<RepositoryPaths> {
  const { stdout } = await runGit(['rev-parse', '--git-dir', '--git-common-dir'], { cwd: workspace });
  const [gitDirectory = '', commonDirectory = ''] = stdout.split('\n');
  // NOTE: older git prints these relative to the current directory; resolve them against the worktree.
  return {
    workspace,
    gitDirectory: path.resolve(workspace, gitDirectory),
    commonDirectory: path.resolve(workspace, commonDirectory),
  };
}

/** The commit `HEAD` points at. */
export async function readHeadCommit(workspace: string): Promise<string> {
  const { stdout } = await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: workspace });
  return stdout.trim();
}

/** Splits NUL-separated git output (`-z`) into its entries. */
export function splitNul(output: string): string[] {
  return output.split('\0').filter((entry) => entry !== '');
}
