import { NotAGitRepositoryError } from '../errors.js';
import { repositoryLayout } from './repository-layout.js';

/**
 * The top of the working tree that contains `directory` (the main checkout or a linked worktree). Throws
 * `NotAGitRepositoryError` when `directory` is not inside one. Used to anchor every later git call.
 */
export async function findRepositoryRoot(directory: string): Promise<string> {
  const { root } = await repositoryLayout(directory);
  if (root === undefined) {
    throw new NotAGitRepositoryError({ directory, cause: new Error('the repository has no working tree') });
  }
  return root;
}

/**
 * The repository's common git directory (`<main>/.git`), shared by every worktree: refs, objects, hooks,
 * config and snodo's merge lock live there. Absolute.
 */
export async function findGitCommonDirectory(directory: string): Promise<string> {
  return (await repositoryLayout(directory)).commonDirectory;
}

/**
 * The git directory of the worktree containing `directory`: `<main>/.git` for the main checkout,
 * `<main>/.git/worktrees/<name>` for a linked one. That is where per-worktree state such as `MERGE_HEAD`
 * or `rebase-merge/` lives. Absolute.
 */
export async function findGitDirectory(directory: string): Promise<string> {
  return (await repositoryLayout(directory)).gitDirectory;
}
