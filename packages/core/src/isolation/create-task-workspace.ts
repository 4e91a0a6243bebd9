import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { compareAndSwapReference } from '../git/compare-and-swap-reference.js';
import { git } from '../git/git.js';
import { GitCommandError } from '../git/git-command-error.js';
import { resolveGitIdentity } from '../git/git-identity.js';
import { objectFormat } from '../git/object-format.js';
import { findGitCommonDirectory, findRepositoryRoot } from '../git/repository-paths.js';
import { initializeWorkspaceRepository } from './initialize-workspace-repository.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { canonicalPath, isPathInside } from './path-inside.js';
import { projectDirectoryName } from './project-directory-name.js';
import { removeDirectory } from './remove-directory.js';
import { readRepositorySettings } from './repository-settings.js';
import { baseBranchNow, type ResolvedBaseBranch, resolveBaseBranch } from './resolve-base-branch.js';
import { taskBranchName } from './task-branch-name.js';

/** Options of `createTaskWorkspace`. */
export interface CreateTaskWorkspaceOptions {
  /** A directory inside the user's repository (usually its root). */
  readonly repositoryRoot: string;
  /** The job id (`j_…`): names the workspace directory and the branch. */
  readonly jobId: string;
  /** The task text; its first words make the branch readable. Untrusted. */
  readonly task: string;
  /** The `--base` flag. Wins over everything. */
  readonly base?: string | undefined;
  /** `execution.base_branch` from the protocol. Used when `base` is absent. */
  readonly configuredBase?: string | undefined;
  /** Where snodo keeps workspaces (`$SNODO_HOME/worktrees`): persistent, outside every repository. */
  readonly worktreesDirectory: string;
  /**
   * The base as the run resolved it when the job started (`checkStartingPoint`): then only its commit is
   * read again, and `base` / `configuredBase` are not consulted. Without it the base is resolved here.
   */
  readonly chosenBase?: Omit<ResolvedBaseBranch, 'baseCommit'> | undefined;
  /** Run `git submodule update --init --recursive` when the repository has `.gitmodules`. Default `true`. */
  readonly initializeSubmodules?: boolean;
}

/**
 * How a task workspace is laid out on disk.
 * - `repository`: its own git repository borrowing the user's objects read-only (what snodo creates).
 * - `worktree`: a linked worktree of the user's repository, made by earlier versions; still listed,
 *   landed and removed, but it cannot be sandboxed (it shares the user's refs, config and hooks).
 *   Jobs kept by an earlier snodo still have one.
 */
export type TaskWorkspaceLayout = 'repository' | 'worktree';

/** An isolated workspace for one job, on its own task branch. */
export interface TaskWorkspace {
  /** Absolute path of the workspace: `<worktreesDirectory>/<project>/<jobId>`. The coder runs here. */
  readonly worktreePath: string;
  /** The task branch, `snodo/<jobId>-<slug>`, in the workspace and in the user's repository. */
  readonly branch: string;
  /** The base's short name, e.g. `trunk`. */
  readonly baseBranch: string;
  /** The base's full ref, e.g. `refs/heads/trunk`. Landing moves it. */
  readonly baseRef: string;
  /** The base commit the task branch starts from. Record it: gates diff `baseCommit..HEAD`. */
  readonly baseCommit: string;
  /** Where the base came from: the `--base` flag, the protocol, or the checkout. */
  readonly baseSource: 'flag' | 'protocol' | 'checkout';
  /** How the workspace is laid out; `state.json` records it as `isolation.mode`. */
  readonly layout: TaskWorkspaceLayout;
  /** `true`: a separate workspace (see `useCurrentCheckout` for `false`). */
  readonly isolated: true;
}

/**
 * Create the job's workspace (SPEC §6, §12): resolve the base, name the branch, create the task branch
 * in the user's repository at the base commit (create-only, so a name collision fails instead of
 * reusing a branch), then a repository of its own at `<worktreesDirectory>/<project>/<jobId>` on the same
 * branch (see `initializeWorkspaceRepository`). The coder commits there; `importTaskBranch` brings each
 * attempt's commit back. Any failure undoes what this call created and throws `IsolationFailedError` with
 * git's message: snodo never falls back to running without isolation. Base errors are
 * `BaseBranchRequiredError` / `BaseBranchNotFoundError`.
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
  const base =
    options.chosenBase === undefined
      ? await resolveBaseBranch({
          repositoryRoot,
          base: options.base,
          configuredBase: options.configuredBase,
        })
      : await baseBranchNow(repositoryRoot, options.chosenBase);
  const branch = taskBranchName({ jobId: options.jobId, task: options.task });
  const taskRef = `refs/heads/${branch}`;
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
  if (existsSync(worktreePath)) {
    throw refuse(
      `${worktreePath} already exists. It may belong to an earlier job with this id; inspect it, or clean up with \`snodo task prune\`.`,
    );
  }
  const [format, identity, settings] = await Promise.all([
    objectFormat(repositoryRoot),
    resolveGitIdentity(repositoryRoot),
    readRepositorySettings(repositoryRoot),
  ]);
  const cleanup = { branchCreated: false, directoryCreated: false };
  try {
    cleanup.branchCreated = await compareAndSwapReference({
      cwd: repositoryRoot,
      reference: taskRef,
      next: base.baseCommit,
      // An empty old value means "must not exist": the branch is created, never overwritten.
      expected: '',
      reflogMessage: `snodo: task branch of job ${options.jobId} from ${base.baseBranch}`,
    });
    // The create-only swap is the existence check: git refuses when the branch is there already.
    if (!cleanup.branchCreated) throw new BranchExists();
    await fs.mkdir(path.dirname(worktreePath), { recursive: true });
    // `mkdir` without `recursive` fails if another process took the path meanwhile.
    await fs.mkdir(worktreePath);
    cleanup.directoryCreated = true;
    await initializeWorkspaceRepository({
      repositoryRoot,
      gitCommonDirectory: canonicalPath(commonDirectory),
      worktreePath,
      jobId: options.jobId,
      branch,
      baseBranch: base.baseBranch,
      baseRef: base.baseRef,
      baseCommit: base.baseCommit,
      objectFormat: format,
      identity,
      settings,
      initializeSubmodules: options.initializeSubmodules !== false,
    });
  } catch (error) {
    if (error instanceof BranchExists) {
      throw refuse(`The branch ${branch} already exists; snodo never reuses or deletes an existing branch.`);
    }
    const undone = await undoWorkspace({
      repositoryRoot,
      worktreePath,
      taskRef,
      baseCommit: base.baseCommit,
      ...cleanup,
    });
    const detail = GitCommandError.isInstance(error)
      ? error.message
      : String((error as Error)?.message ?? error);
    throw refuse(
      `Could not create the task workspace ${worktreePath} on ${branch} from ${base.baseBranch}: ${detail}${undone}`,
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
    layout: 'repository',
    isolated: true,
  };
}

/** Remove the workspace and branch this very call created (nothing else exists in them yet). */
async function undoWorkspace(options: {
  repositoryRoot: string;
  worktreePath: string;
  taskRef: string;
  baseCommit: string;
  branchCreated: boolean;
  directoryCreated: boolean;
}): Promise<string> {
  try {
    if (options.directoryCreated) await removeDirectory(options.worktreePath);
    if (options.branchCreated) {
      // Delete exactly the value created: if anything moved the branch meanwhile, git refuses.
      await git(['update-ref', '-d', options.taskRef, options.baseCommit], { cwd: options.repositoryRoot });
    }
    return '';
  } catch (error) {
    return ` (cleaning up also failed, remove ${options.worktreePath} and ${options.taskRef} by hand: ${(error as Error).message})`;
  }
}

/** The task branch was there before this call (never thrown out of this file). */
class BranchExists extends Error {}
