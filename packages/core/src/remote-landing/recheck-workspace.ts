import { promises as fs } from 'node:fs';
import path from 'node:path';
import { resolveGitIdentity } from '../git/git-identity.js';
import { objectFormat } from '../git/object-format.js';
import { findGitCommonDirectory, findRepositoryRoot } from '../git/repository-paths.js';
import { initializeWorkspaceRepository } from '../isolation/initialize-workspace-repository.js';
import { canonicalPath } from '../isolation/path-inside.js';
import { removeDirectory } from '../isolation/remove-directory.js';
import { readRepositorySettings } from '../isolation/repository-settings.js';

/** A throw-away workspace at the candidate landing commit, with the private directories its sandbox needs. */
export interface RecheckWorkspace {
  /** The workspace repository, checked out at the candidate (detached from every ref of the clone). */
  readonly worktreePath: string;
  /** The sandbox's private HOME, coder-state and `/tmp` (nothing runs a coder here; the sandbox wants them). */
  readonly homeDirectory: string;
  readonly stateDirectory: string;
  readonly temporaryDirectory: string;
  /** Deletes all of it. */
  remove(): Promise<void>;
}

/**
 * Makes the re-check's workspace the way core makes a task workspace (`initializeWorkspaceRepository`: a
 * repository of its own borrowing the clone's objects read-only, with snodo's marker, so the job sandbox's
 * workspace mounts apply), but without a task branch in the clone: the clone's refs are watched by the
 * repository guard of runs in it, and the candidate commit must stay unreferenced until it is pushed.
 *
 * It lives under `$SNODO_HOME/rechecks/`, not the worktrees directory, so task listings and `snodo task
 * prune` never see it.
 */
export async function createRecheckWorkspace(options: {
  clone: string;
  snodoHome: string;
  jobId: string;
  commit: string;
  baseName: string;
}): Promise<RecheckWorkspace> {
  const repositoryRoot = await findRepositoryRoot(options.clone);
  const parent = path.join(options.snodoHome, 'rechecks');
  await fs.mkdir(parent, { recursive: true, mode: 0o700 });
  const root = canonicalPath(await fs.mkdtemp(path.join(parent, `${options.jobId}-`)));
  const remove = () => removeDirectory(root);
  try {
    const worktreePath = path.join(root, 'workspace');
    const directories = {
      homeDirectory: path.join(root, 'home'),
      stateDirectory: path.join(root, 'state'),
      temporaryDirectory: path.join(root, 'tmp'),
    };
    for (const directory of [worktreePath, ...Object.values(directories)]) await fs.mkdir(directory);
    const [format, identity, settings, commonDirectory] = await Promise.all([
      objectFormat(repositoryRoot),
      resolveGitIdentity(repositoryRoot),
      readRepositorySettings(repositoryRoot),
      findGitCommonDirectory(repositoryRoot),
    ]);
    await initializeWorkspaceRepository({
      repositoryRoot,
      gitCommonDirectory: canonicalPath(commonDirectory),
      worktreePath,
      jobId: options.jobId,
      branch: `snodo-recheck/${options.jobId}`,
      baseBranch: options.baseName,
      baseRef: `refs/heads/${options.baseName}`,
      baseCommit: options.commit,
      objectFormat: format,
      identity,
      settings,
      initializeSubmodules: true,
    });
    return { worktreePath, ...directories, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
