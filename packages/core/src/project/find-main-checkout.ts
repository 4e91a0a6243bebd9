import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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

/**
 * The variable that changes where snodo's git finds a repository from a directory (`GIT_DIR`,
 * `GIT_WORK_TREE` and `GIT_COMMON_DIR` are scrubbed from its environment): with it set, ask git.
 */
const CEILING_VARIABLE = 'GIT_CEILING_DIRECTORIES';

/** `directory` with every link resolved, as git reports paths; `undefined` when it does not exist. */
function realDirectory(directory: string): string | undefined {
  try {
    return realpathSync.native(resolve(directory));
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * `findMainCheckout` for commands that only read job files (`snodo task show`, `snodo logs`): where the
 * first `.git` above `directory` is a directory that looks like a repository (HEAD, objects/, refs/), that
 * is the main checkout, found without starting git (one process was ~4 ms of a ~65 ms command). Anything
 * else (a linked worktree's or a submodule's `.git` file, `GIT_CEILING_DIRECTORIES`, no `.git` at all)
 * asks git. Commands that change anything use `findMainCheckout`, whose git also refuses a repository
 * another user owns or of a format it does not know, and stops at a filesystem boundary; reading job
 * files the user can read needs none of that.
 */
export async function findMainCheckoutForReading(
  directory: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<{ root: string; commonDirectory: string }> {
  const start = env[CEILING_VARIABLE] ? undefined : realDirectory(directory);
  if (start !== undefined) {
    for (let current = start; ; current = dirname(current)) {
      const dotGit = join(current, '.git');
      const entry = statSync(dotGit, { throwIfNoEntry: false });
      if (entry !== undefined) {
        const repository =
          entry.isDirectory() &&
          statSync(join(dotGit, 'HEAD'), { throwIfNoEntry: false })?.isFile() === true &&
          isDirectory(join(dotGit, 'objects')) &&
          isDirectory(join(dotGit, 'refs'));
        if (repository) return { root: current, commonDirectory: dotGit };
        break;
      }
      if (dirname(current) === current) break;
    }
  }
  return findMainCheckout(directory);
}
