import { existsSync } from 'node:fs';
import { type CurrentBranch, currentBranch } from '../git/current-branch.js';
import { type GitIdentity, resolveGitIdentity } from '../git/git-identity.js';
import { headFileNames } from '../git/head-file.js';
import type { WorktreeEntry } from '../git/list-worktrees.js';
import { findGitCommonDirectory, findRepositoryRoot } from '../git/repository-paths.js';
import { resolveCommit } from '../git/rev-parse.js';
import { workingTreeStatus } from '../git/working-tree-status.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { landingMessage } from './landing-message.js';
import { boardLandingTrain } from './landing-train.js';
import type { RepositoryMergeLockOptions } from './repository-merge-lock.js';
import { workspaceUpdateCommand } from './workspace-commands.js';
import { readWorkspaceMarker } from './workspace-marker.js';
import { WorktreeDirtyError } from './worktree-dirty-error.js';

/** How a task branch lands on its base (`execution.merge_strategy`). */
export type LandingStrategy = 'merge' | 'ff-only' | 'squash' | 'none';

/** What landing did; the job's outcome and `merge-end` audit event follow from it. */
export type LandingOutcome =
  | 'merged'
  | 'base_moved'
  | 'merge_conflict'
  | 'merge_deferred'
  | 'branch_kept'
  | 'not_fast_forward';

/** Options of `landTaskBranch`. */
export interface LandTaskBranchOptions {
  /** A directory inside the user's repository. */
  readonly repositoryRoot: string;
  /** The base to land on: `refs/heads/<name>` or a short branch name. */
  readonly baseRef: string;
  /** The base commit recorded when the job started (for the record; the base may have moved since). */
  readonly baseCommit: string;
  /** The task branch (short name, e.g. `snodo/j_abc-add-login`). */
  readonly branch: string;
  /** The task worktree, checked to be on `branch` and clean so nothing uncommitted is left behind. */
  readonly worktreePath?: string;
  /** How to land. */
  readonly strategy: LandingStrategy;
  /** The job, for the lock file and the reflog. */
  readonly jobId: string;
  /** The message of a merge or squash commit snodo creates (not used by a fast-forward). */
  readonly message: string;
  /** Trailers appended to that message in order, e.g. `{ 'Snodo-Job': 'j_abc', 'Snodo-Checkpoint': '…' }`. */
  readonly trailers?: Readonly<Record<string, string>>;
  /** Bounded wait for another landing into the same repository. Default 120 s. */
  readonly lockTimeoutMs?: number;
  /** Told once when that wait lasts over a second, with who holds the lock. */
  readonly onLockWait?: RepositoryMergeLockOptions['onWait'];
  /**
   * Judges the base tip read under the merge lock before anything moves; returning a result (outcome
   * `base_moved`) stops the landing with it. The pipeline uses it to refuse landing on top of commits no
   * snodo landing made during the job.
   */
  readonly checkBase?: (current: string) => Promise<LandTaskBranchResult | undefined>;
  /**
   * The paths `from..to` changes, as the caller already knows them (the post-execute gates' diff of
   * `baseCommit..task`; both sides of a rename): used for the checkout checks instead of a `git diff` when
   * the landing moves the base exactly from `from` to `to` (a fast-forward of an unmoved base).
   */
  readonly knownChangedPaths?: {
    readonly from: string;
    readonly to: string;
    readonly paths: readonly string[];
  };
  /** @internal Test seam: runs inside the lock right before the base ref is moved. */
  readonly testHooks?: { readonly beforeBaseUpdate?: (attempt: number) => void | Promise<void> };
}

/** The result of `landTaskBranch`. Fields beyond `outcome` and `message` appear where they apply. */
export interface LandTaskBranchResult {
  /** What happened. */
  readonly outcome: LandingOutcome;
  /** One or two sentences for the user, including what to type next when the job is kept. */
  readonly message: string;
  /** `merged`: the base's new tip (the task tip itself for a fast-forward). */
  readonly mergeCommit?: string;
  /** The base tip that was current when landing ran (it may differ from the job's `baseCommit`). */
  readonly previousBaseCommit?: string;
  /** `merged` by moving the base to the task tip, without a new commit. */
  readonly fastForward?: boolean;
  /** `merged` without moving anything: the base already contains the task's changes. */
  readonly alreadyMerged?: boolean;
  /** `merge_conflict`: the conflicting paths. */
  readonly conflictedFiles?: readonly string[];
  /** `merge_deferred`: the user's uncommitted paths the merge would have touched. */
  readonly overlappingPaths?: readonly string[];
  /** `base_moved`: commits the base gained that no snodo landing made (at most ten named). */
  readonly foreignCommits?: readonly { readonly commit: string; readonly subject: string }[];
  /** `merged`: checkouts of the base whose files were brought up to date. */
  readonly updatedCheckouts?: readonly string[];
  /**
   * `merged` after moving the base: the repository's worktrees as read under the merge lock just before,
   * for the workspace removal that follows (`removeTaskWorkspace`'s `worktrees`) so it need not list them
   * again. Moving the base changes none of the paths or branch names it holds.
   */
  readonly worktrees?: readonly WorktreeEntry[];
}

/**
 * Land a task branch on its base, serialised per repository by the merge lock. Conflicts are detected
 * first with an in-memory merge, so a conflict changes nothing anywhere. The result commit is built with
 * plumbing and the base moves by compare-and-swap; a checkout of the base is updated only when that cannot
 * overwrite the user's uncommitted work, otherwise nothing moves and the outcome is `merge_deferred`.
 * Landings of this process onto the same base that wait for the lock at the same time go together in one
 * hold of it (`boardLandingTrain`); each still gets its own commit and result.
 */
export async function landTaskBranch(options: LandTaskBranchOptions): Promise<LandTaskBranchResult> {
  const baseRef = options.baseRef.startsWith('refs/heads/')
    ? options.baseRef
    : `refs/heads/${options.baseRef}`;
  const baseName = baseRef.slice('refs/heads/'.length);
  const taskRef = `refs/heads/${options.branch}`;
  const repositoryRoot = await findRepositoryRoot(options.repositoryRoot);
  const fail = (message: string, cause?: unknown): IsolationFailedError =>
    new IsolationFailedError({ operation: 'land', message, cause });

  const importedTip = await resolveCommit(repositoryRoot, taskRef);
  if (importedTip === undefined) {
    throw fail(`The task branch ${options.branch} does not exist, so there is nothing to land.`);
  }
  if (options.strategy === 'none') {
    return {
      outcome: 'branch_kept',
      message: `Left ${options.branch} for review (merge strategy "none"); open a pull request from it or run \`snodo task merge ${options.jobId}\`.`,
    };
  }
  if (options.worktreePath !== undefined && existsSync(options.worktreePath)) {
    const inWorkspace = await assertTaskWorktreeReady(options.worktreePath, taskRef);
    if (readWorkspaceMarker(options.worktreePath) !== undefined) {
      // The workspace is a repository of its own: what lands is the task branch of the user's repository,
      // so a commit made in the workspace and never imported would silently be left out. Its HEAD is on
      // the task branch (checked above), so HEAD's commit is the branch's tip there.
      const imported = importedTip;
      if (inWorkspace !== imported) {
        throw fail(
          `${options.branch} is at ${inWorkspace?.slice(0, 12) ?? 'nothing'} in the task workspace ${options.worktreePath} ` +
            `but at ${imported?.slice(0, 12) ?? 'nothing'} in your repository; run \`snodo task merge ${options.jobId}\`, ` +
            'which imports the workspace first.',
        );
      }
    }
  }
  const gitCommonDirectory = await findGitCommonDirectory(repositoryRoot);
  const worktreePath = options.worktreePath;
  const updateCommand = (action: 'merge' | 'rebase'): string =>
    worktreePath === undefined
      ? `check out ${options.branch}, ${action === 'merge' ? 'merge' : 'rebase onto'} ${baseName}`
      : `\`${workspaceUpdateCommand({
          repositoryRoot,
          worktreePath,
          baseBranch: baseName,
          layout: readWorkspaceMarker(worktreePath) === undefined ? 'worktree' : 'repository',
          action,
        })}\``;
  // Only a merge or squash commit needs an identity; a fast-forward spares the lookup.
  let identity: Promise<GitIdentity> | undefined;
  return boardLandingTrain(
    {
      repositoryRoot,
      gitCommonDirectory,
      baseRef,
      baseName,
      identity: () => {
        identity ??= resolveGitIdentity(repositoryRoot);
        return identity;
      },
    },
    {
      jobId: options.jobId,
      branch: options.branch,
      taskRef,
      strategy: options.strategy,
      commitMessage: landingMessage(
        options.message.trim() === ''
          ? `Merge ${options.branch} (snodo job ${options.jobId})`
          : options.message,
        options.trailers,
      ),
      updateCommand,
      ...(options.checkBase === undefined ? {} : { checkBase: options.checkBase }),
      ...(options.knownChangedPaths === undefined ? {} : { knownChangedPaths: options.knownChangedPaths }),
      ...(options.testHooks === undefined ? {} : { testHooks: options.testHooks }),
    },
    { lockTimeoutMs: options.lockTimeoutMs, onLockWait: options.onLockWait },
  );
}

/**
 * Refuse to land a task worktree that is off its branch or has uncommitted work that would be left behind.
 * Returns the commit the branch is at there.
 */
async function assertTaskWorktreeReady(worktreePath: string, taskRef: string): Promise<string | undefined> {
  const head =
    (await headOnBranchFromFile(worktreePath, taskRef)) ??
    (await currentBranch(worktreePath).catch(() => undefined));
  const headRef = head === undefined ? '' : head.detached ? 'detached' : head.ref;
  if (headRef !== taskRef) {
    throw new IsolationFailedError({
      operation: 'land',
      message:
        `The task worktree ${worktreePath} is no longer on ${taskRef.slice('refs/heads/'.length)} ` +
        `(HEAD: ${headRef || 'detached'}); something switched branches there. Inspect it before landing.`,
    });
  }
  const changes = await workingTreeStatus(worktreePath);
  if (changes.length > 0) {
    throw new WorktreeDirtyError({
      worktreePath,
      changedPaths: changes.map((change) => change.path),
      purpose: 'land',
    });
  }
  return head?.commit;
}

/**
 * The workspace's HEAD when its `.git/HEAD` file says it is on `taskRef` (how git's files backend stores
 * it), with the branch's commit from the ref reader: no `rev-parse` process. Anything else (a linked
 * worktree's `.git` file, a detached or other HEAD, a reftable repository's stub) is `undefined`, and git
 * itself answers.
 */
async function headOnBranchFromFile(
  worktreePath: string,
  taskRef: string,
): Promise<CurrentBranch | undefined> {
  if (!headFileNames(worktreePath, taskRef)) return undefined;
  const commit = await resolveCommit(worktreePath, taskRef);
  if (commit === undefined) return undefined;
  return { detached: false, name: taskRef.slice('refs/heads/'.length), ref: taskRef, commit };
}
