import { basename, dirname } from 'node:path';
import { NotAGitRepositoryError } from '../errors.js';
import { findGitCommonDirectory } from '../git/repository-paths.js';

/** The main checkout of the repository containing `directory`, even from inside a linked worktree. */
export async function findMainCheckout(
  directory: string,
): Promise<{ root: string; commonDirectory: string }> {
  const commonDirectory = await findGitCommonDirectory(directory);
  if (basename(commonDirectory) !== '.git') {
    throw new NotAGitRepositoryError({ directory });
  }
  return { root: dirname(commonDirectory), commonDirectory };
}
