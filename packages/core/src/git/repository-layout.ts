import { statSync } from 'node:fs';
import path from 'node:path';
import { NotAGitRepositoryError } from '../errors.js';
import { dotGitIdentity } from './dot-git-identity.js';
import { git } from './git.js';
import type { ObjectFormat } from './object-format.js';

/** Where a repository's parts are, as one `git rev-parse` reports them. */
export interface RepositoryLayout {
  /** The top of the working tree; absent in a bare repository. */
  readonly root: string | undefined;
  /** The common git directory shared by every worktree (refs, objects, config). */
  readonly commonDirectory: string;
  /** This worktree's own git directory (the same as `commonDirectory` in the main checkout). */
  readonly gitDirectory: string;
  readonly objectFormat: ObjectFormat;
}

interface CachedLayout {
  readonly layout: RepositoryLayout;
  /** Identity of `<root>/.git` when the layout was read: a repository made again at the same path has another. */
  readonly dotGitIdentity: string;
}

// A run asks for these facts a dozen times (the door, isolation, landing, the guard) and they cannot change
// while the repository exists. Only a directory that is its working tree's top is cached, and each hit is
// checked against the `.git` entry's identity (`dotGitIdentity`), so a repository deleted and made again
// at the same path (tests do it) or a `git init` in a subdirectory is never answered from a stale entry.
const layouts = new Map<string, CachedLayout>();

/**
 * The layout of the repository that contains `directory`, in one git process. Throws `NotAGitRepositoryError`
 * when `directory` is not inside one.
 */
export async function repositoryLayout(directory: string): Promise<RepositoryLayout> {
  const key = path.resolve(directory);
  const cached = layouts.get(key);
  if (cached !== undefined && dotGitIdentity(key) === cached.dotGitIdentity) return cached.layout;
  if (cached !== undefined) layouts.delete(key);

  const layout = await readLayout(key);
  if (layout.root === key) {
    const identity = dotGitIdentity(key);
    if (identity !== undefined) layouts.set(key, { layout, dotGitIdentity: identity });
  }
  return layout;
}

async function readLayout(directory: string): Promise<RepositoryLayout> {
  if (statSync(directory, { throwIfNoEntry: false }) === undefined) {
    throw new NotAGitRepositoryError({ directory });
  }
  // `--show-toplevel` comes last: in a bare repository it fails after the others have printed.
  const result = await git(
    [
      'rev-parse',
      '--path-format=absolute',
      '--git-common-dir',
      '--absolute-git-dir',
      '--show-object-format',
      '--show-toplevel',
    ],
    { cwd: directory, allowFailure: true, readOnly: true },
  ).catch((error: unknown) => {
    throw new NotAGitRepositoryError({ directory, cause: error });
  });
  const [commonDirectory, gitDirectory, format, root] = result.stdout.split('\n');
  if (!commonDirectory || !gitDirectory || !format) {
    throw new NotAGitRepositoryError({ directory, cause: new Error(result.stderr) });
  }
  return {
    root: result.exitCode === 0 && root ? path.resolve(root) : undefined,
    commonDirectory: path.resolve(commonDirectory),
    gitDirectory: path.resolve(gitDirectory),
    objectFormat: format === 'sha256' ? 'sha256' : 'sha1',
  };
}
