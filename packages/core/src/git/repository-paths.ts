import { existsSync } from 'node:fs';
import path from 'node:path';
import { NotAGitRepositoryError } from '../errors.js';
import { git } from './git.js';

/**
 * The top of the working tree that contains `directory` (the main checkout or a linked worktree). Throws
 * `NotAGitRepositoryError` when `directory` is not inside one. Used to anchor every later git call.
 */
export async function findRepositoryRoot(directory: string): Promise<string> {
  return path.resolve(await askRevParse(directory, ['--show-toplevel']));
}

/**
 * The repository's common git directory (`<main>/.git`), shared by every worktree: refs, objects, hooks,
 * config and snodo's merge lock live there. Absolute.
 */
export async function findGitCommonDirectory(directory: string): Promise<string> {
  return path.resolve(await askRevParse(directory, ['--path-format=absolute', '--git-common-dir']));
}

/**
 * The git directory of the worktree containing `directory`: `<main>/.git` for the main checkout,
 * `<main>/.git/worktrees/<name>` for a linked one. That is where per-worktree state such as `MERGE_HEAD`
 * or `rebase-merge/` lives. Absolute.
 */
export async function findGitDirectory(directory: string): Promise<string> {
  return path.resolve(await askRevParse(directory, ['--absolute-git-dir']));
}

async function askRevParse(directory: string, args: readonly string[]): Promise<string> {
  if (!existsSync(directory)) throw new NotAGitRepositoryError({ directory });
  // A path that is a file, or vanished meanwhile, makes the spawn itself fail: that is "not a repository" too.
  const result = await git(['rev-parse', ...args], {
    cwd: directory,
    allowFailure: true,
    readOnly: true,
  }).catch((error: unknown) => {
    throw new NotAGitRepositoryError({ directory, cause: error });
  });
  const answer = result.stdout.trim();
  if (result.exitCode !== 0 || answer === '') {
    throw new NotAGitRepositoryError({ directory, cause: new Error(result.stderr) });
  }
  return answer;
}
