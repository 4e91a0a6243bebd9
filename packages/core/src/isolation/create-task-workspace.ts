import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from '../git/git.js';
import { GitCommandError } from '../git/git-command-error.js';
import { findGitCommonDirectory, findRepositoryRoot } from '../git/repository-paths.js';
import { resolveCommit } from '../git/rev-parse.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { canonicalPath, isPathInside } from './path-inside.js';
import { projectDirectoryName } from './project-directory-name.js';
import { withRepositoryMergeLock, worktreeLockFileName } from './repository-merge-lock.js';
import { resolveBaseBranch } from './resolve-base-branch.js';
import { taskBranchName } from './task-branch-name.js';
import { workspaceLockReason } from './workspace-lock-reason.js';

/** Options of `createTaskWorkspace`. */
export interface CreateTaskWorkspaceOptions {
  /** A directory inside the user's repository (usually its root). */
  readonly repositoryRoot: string;
  /** The job id (`j_…`): names the worktree directory and the branch. */
  readonly jobId: string;
  /** The task text; its first words make the branch readable. Untrusted. */
  readonly task: string;
  /** The `--base` flag. Wins over everything. */
  readonly base?: string | undefined;
  /** `execution.base_branch` from the protocol. Used when `base` is absent. */
  readonly configuredBase?: string | undefined;
  /** Where snodo keeps worktrees (`$SNODO_HOME/worktrees`): persistent, outside every repository. */
  readonly worktreesDirectory: string;
  /** Run `git submodule update --init --recursive` when the repository has `.gitmodules`. Default `true`. */
  readonly initializeSubmodules?: boolean;
}

/** An isolated workspace for one job: a locked git worktree on its own branch. */
export interface TaskWorkspace {
  /** Absolute path of the worktree: `<worktreesDirectory>/<project>/<jobId>`. The coder runs here. */
  readonly worktreePath: string;
  /** The task branch, `snodo/<jobId>-<slug>`. */
  readonly branch: string;
  /** The base's short name, e.g. `trunk`. */
  readonly baseBranch: string;
  /** The base's full ref, e.g. `refs/heads/trunk`. Landing moves it. */
  readonly baseRef: string;
  /** The base commit the task branch starts from. Record it: gates diff `baseCommit..HEAD`. */
  readonly baseCommit: string;
  /** Where the base came from: the `--base` flag, the protocol, or the checkout. */
  readonly baseSource: 'flag' | 'protocol' | 'checkout';
  /** `true`: a separate worktree (see `useCurrentCheckout` for `false`). */
  readonly isolated: true;
}

/**
 * Create the job's worktree: resolve the base, name the branch, prune stale registrations, then
 * `git worktree add --lock -b <branch> <path> <baseCommit>` (locked with a reason naming snodo and the job
 * so `git worktree prune` leaves it alone while the job is live), and initialise submodules. Any failure
 * undoes what this call created and throws `IsolationFailedError` with git's message: snodo never falls
 * back to running without isolation. Base errors are `BaseBranchRequiredError` / `BaseBranchNotFoundError`.
 */
export async function createTaskWorkspace(options: CreateTaskWorkspaceOptions): Promise<TaskWorkspace> {
  const refuse = (message: string, cause?: unknown): IsolationFailedError =>
    new IsolationFailedError({ operation: 'create', message, cause });
  if (!path.isAbsolute(options.worktreesDirectory)) {
    throw refuse(
      `The worktrees directory must be an absolute path, got ${JSON.stringify(options.worktreesDirectory)}.`,
    );
  }
  const repositoryRoot = await findRepositoryRoot(options.repositoryRoot);
  const commonDirectory = await findGitCommonDirectory(repositoryRoot);
  const base = await resolveBaseBranch({
    repositoryRoot,
    base: options.base,
    configuredBase: options.configuredBase,
  });
  const branch = await taskBranchName({ cwd: repositoryRoot, jobId: options.jobId, task: options.task });
  const worktreePath = path.join(
    canonicalPath(options.worktreesDirectory),
    projectDirectoryName(commonDirectory),
    options.jobId,
  );

  const mainWorkingTree =
    path.basename(commonDirectory) === '.git' ? path.dirname(commonDirectory) : commonDirectory;
  if (
    isPathInside(repositoryRoot, worktreePath) ||
    isPathInside(commonDirectory, worktreePath) ||
    isPathInside(mainWorkingTree, worktreePath)
  ) {
    throw refuse(
      `The worktree path ${worktreePath} would lie inside the repository ${repositoryRoot}; an agent's files ` +
        'would then be part of the project. Point the worktrees directory (SNODO_HOME) outside the repository.',
    );
  }
  if (await resolveCommit(repositoryRoot, `refs/heads/${branch}`)) {
    throw refuse(`The branch ${branch} already exists; snodo never reuses or deletes an existing branch.`);
  }
  if (existsSync(worktreePath)) {
    throw refuse(
      `${worktreePath} already exists. It may belong to an earlier job with this id; inspect it, or clean up with \`snodo task prune\`.`,
    );
  }

  let added = false;
  try {
    await fs.mkdir(path.dirname(worktreePath), { recursive: true });
    await withRepositoryMergeLock(
      {
        gitCommonDirectory: commonDirectory,
        jobId: options.jobId,
        fileName: worktreeLockFileName,
        purpose: 'worktree creation in this repository',
      },
      async () => {
        // NOTE: a registration whose directory vanished (a crash, a cleaner) blocks reusing its path and
        // name, so prune first. But prune deletes the half-written registration of an `add` running at the
        // same moment (seen in tests: "could not open .git/worktrees/<id>/gitdir"), hence the lock.
        await git(['worktree', 'prune'], { cwd: repositoryRoot });
        await git(
          [
            'worktree',
            'add',
            '--lock',
            '--reason',
            workspaceLockReason(options.jobId),
            '-b',
            branch,
            worktreePath,
            base.baseCommit,
          ],
          { cwd: repositoryRoot },
        );
        added = true;
      },
    );
    if (options.initializeSubmodules !== false && existsSync(path.join(worktreePath, '.gitmodules'))) {
      await git(['submodule', 'update', '--init', '--recursive'], { cwd: worktreePath });
    }
  } catch (error) {
    const cleanup = added ? await undoWorktree(repositoryRoot, worktreePath, branch, base.baseCommit) : '';
    const detail = GitCommandError.isInstance(error)
      ? error.message
      : String((error as Error)?.message ?? error);
    throw refuse(
      `Could not create the task worktree ${worktreePath} on ${branch} from ${base.baseBranch}: ${detail}${cleanup}`,
      error,
    );
  }
  return {
    worktreePath,
    branch,
    baseBranch: base.baseBranch,
    baseRef: base.baseRef,
    baseCommit: base.baseCommit,
    baseSource: base.source,
    isolated: true,
  };
}

/** Remove the worktree and branch this very call created (nothing else exists in them yet). */
async function undoWorktree(
  repositoryRoot: string,
  worktreePath: string,
  branch: string,
  baseCommit: string,
): Promise<string> {
  try {
    // NOTE: a locked worktree needs --force twice.
    await git(['worktree', 'remove', '--force', '--force', worktreePath], { cwd: repositoryRoot });
    await git(['update-ref', '-d', `refs/heads/${branch}`, baseCommit], { cwd: repositoryRoot });
    return '';
  } catch (error) {
    return ` (cleaning up also failed, remove ${worktreePath} and ${branch} by hand: ${(error as Error).message})`;
  }
}
