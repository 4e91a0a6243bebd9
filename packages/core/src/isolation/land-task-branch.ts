import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { commitTree } from '../git/commit-tree.js';
import { compareAndSwapReference } from '../git/compare-and-swap-reference.js';
import { type CurrentBranch, currentBranch } from '../git/current-branch.js';
import { diffNameStatus } from '../git/diff-name-status.js';
import { type GitIdentity, resolveGitIdentity } from '../git/git-identity.js';
import type { WorktreeEntry } from '../git/list-worktrees.js';
import { mergeTrees } from '../git/merge-trees.js';
import { findGitCommonDirectory, findRepositoryRoot } from '../git/repository-paths.js';
import { relateCommits, resolveCommit, resolveCommits, revParse } from '../git/rev-parse.js';
import { workingTreeStatus } from '../git/working-tree-status.js';
import {
  appendLandingLedger,
  removeLandingJournal,
  writeLandingJournal,
} from '../landing/landing-journal.js';
import { inspectBaseCheckouts, updateCheckouts } from './base-checkout.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { landingMessage } from './landing-message.js';
import { type RepositoryMergeLockOptions, withRepositoryMergeLock } from './repository-merge-lock.js';
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

/** How often a base that moves under us (the user committing) is re-read before giving up. */
const maxAttempts = 5;

/**
 * Land a task branch on its base, serialised per repository by the merge lock. Conflicts are detected
 * first with an in-memory merge, so a conflict changes nothing anywhere. The result commit is built with
 * plumbing and the base moves by compare-and-swap; a checkout of the base is updated only when that cannot
 * overwrite the user's uncommitted work, otherwise nothing moves and the outcome is `merge_deferred`.
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
  // Only a merge or squash commit needs an identity; a fast-forward spares the lookup.
  let identity: GitIdentity | undefined;
  const landingIdentity = async (): Promise<GitIdentity> => {
    identity ??= await resolveGitIdentity(repositoryRoot);
    return identity;
  };
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
  const commitMessage = landingMessage(
    options.message.trim() === '' ? `Merge ${options.branch} (snodo job ${options.jobId})` : options.message,
    options.trailers,
  );

  return withRepositoryMergeLock(
    {
      gitCommonDirectory,
      jobId: options.jobId,
      ...(options.lockTimeoutMs ? { timeoutMs: options.lockTimeoutMs } : {}),
      onWait: options.onLockWait,
    },
    async () => {
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        const [taskTip, current] = await resolveCommits(repositoryRoot, [taskRef, baseRef]);
        if (taskTip === undefined) throw fail(`The task branch ${options.branch} disappeared while landing.`);
        if (current === undefined)
          throw fail(`The base branch ${baseName} no longer exists; recreate it or land elsewhere.`);
        const refused = await options.checkBase?.(current);
        if (refused !== undefined) return refused;
        // One merge-base answers both questions: is the task already in the base, and can the base
        // fast-forward to it.
        const relation = await relateCommits(repositoryRoot, taskTip, current);
        if (relation === 'same' || relation === 'ancestor') {
          return merged(
            current,
            current,
            { alreadyMerged: true },
            `${baseName} already contains ${options.branch}.`,
          );
        }
        const fastForward = relation === 'descendant';
        // A fast-forward cannot conflict and its tree is the task's: the in-memory merge is only needed
        // when both sides moved, or to squash.
        const merge =
          fastForward && options.strategy !== 'squash'
            ? { tree: '', conflictedFiles: [] as readonly string[] }
            : await mergeTrees({ cwd: repositoryRoot, ours: current, theirs: taskTip });
        if (merge.conflictedFiles.length > 0) {
          return {
            outcome: 'merge_conflict',
            previousBaseCommit: current,
            conflictedFiles: merge.conflictedFiles,
            message:
              `${options.branch} conflicts with ${baseName} in ${merge.conflictedFiles.join(', ')}; nothing was changed. ` +
              `Resolve it in the task workspace (${updateCommand('merge')}), commit, and run \`snodo task merge ${options.jobId}\`, ` +
              `or drop it with \`snodo task abandon ${options.jobId}\`.`,
          };
        }
        let next: string;
        if (options.strategy === 'ff-only' && !fastForward) {
          return {
            outcome: 'not_fast_forward',
            previousBaseCommit: current,
            message:
              `${baseName} moved on since the task started, so ${options.branch} cannot be fast-forwarded onto it ` +
              `(merge strategy "ff-only"). Rebase the branch onto ${baseName} (${updateCommand('rebase')}) and run ` +
              `\`snodo task merge ${options.jobId}\`, or use merge strategy "merge".`,
          };
        }
        if (options.strategy === 'squash') {
          if (merge.tree === (await revParse(repositoryRoot, `${current}^{tree}`))) {
            return merged(
              current,
              current,
              { alreadyMerged: true },
              `${baseName} already has every change of ${options.branch}.`,
            );
          }
          next = await commitTree({
            cwd: repositoryRoot,
            tree: merge.tree,
            parents: [current],
            message: commitMessage,
            identity: await landingIdentity(),
          });
        } else if (fastForward) {
          next = taskTip;
        } else {
          next = await commitTree({
            cwd: repositoryRoot,
            tree: merge.tree,
            parents: [current, taskTip],
            message: commitMessage,
            identity: await landingIdentity(),
          });
        }

        const known = options.knownChangedPaths;
        const changedPaths = new Set(
          known?.from === current && known.to === next
            ? known.paths
            : (await diffNameStatus({ cwd: repositoryRoot, from: current, to: next, renames: false })).map(
                (entry) => entry.path,
              ),
        );
        const inspection = await inspectBaseCheckouts({
          repositoryRoot,
          gitCommonDirectory,
          baseRef,
          changedPaths: [...changedPaths],
        });
        if (inspection.deferral !== undefined) {
          const { checkoutPath, overlappingPaths, reason } = inspection.deferral;
          return deferred(
            current,
            overlappingPaths,
            `${checkoutPath} has ${baseName} checked out and ${reason}`,
          );
        }
        await options.testHooks?.beforeBaseUpdate?.(attempt);
        // The journal goes to disk before the ref moves: a crash between the move and the checkout update
        // is finished by the next start (see recoverInterruptedLandings) instead of leaving the user's
        // checkout showing the merge reversed.
        const move = { jobId: options.jobId, baseRef, from: current, to: next };
        writeLandingJournal(repositoryRoot, {
          ...move,
          checkouts: inspection.checkouts.map((checkout) => checkout.path),
        });
        const swapped = await compareAndSwapReference({
          cwd: repositoryRoot,
          reference: baseRef,
          next,
          expected: current,
          reflogMessage: `snodo: land ${options.branch} (${options.strategy}, job ${options.jobId})`,
        });
        if (!swapped) {
          removeLandingJournal(repositoryRoot, options.jobId);
          continue;
        }
        appendLandingLedger(repositoryRoot, move);
        let updated: Awaited<ReturnType<typeof updateCheckouts>>;
        try {
          updated = await updateCheckouts(inspection.checkouts, current, next, changedPaths);
          if (updated.failure !== undefined) {
            const restored = await compareAndSwapReference({
              cwd: repositoryRoot,
              reference: baseRef,
              next: current,
              expected: next,
              reflogMessage: `snodo: undo landing of ${options.branch} (job ${options.jobId})`,
            });
            if (!restored) {
              throw fail(
                `${baseName} was moved to ${next} but updating ${updated.failure.path} failed and ${baseName} moved again, ` +
                  `so snodo could not undo it. Check \`git status\` there. git said: ${updated.failure.detail}`,
              );
            }
            appendLandingLedger(repositoryRoot, { ...move, from: next, to: current });
            return deferred(
              current,
              [],
              `updating ${updated.failure.path} was refused by git (${updated.failure.detail})`,
            );
          }
        } finally {
          // Only a crash leaves the journal behind; every outcome reached here is final.
          removeLandingJournal(repositoryRoot, options.jobId);
        }
        return merged(
          next,
          current,
          {
            fastForward: fastForward && options.strategy !== 'squash',
            updatedCheckouts: updated.paths,
            ...(inspection.worktrees === undefined ? {} : { worktrees: inspection.worktrees }),
          },
          `Landed ${options.branch} on ${baseName} at ${next.slice(0, 12)}.`,
        );
      }
      throw fail(
        `${baseName} kept moving while snodo tried to land ${options.branch} (${maxAttempts} attempts); ` +
          `run \`snodo task merge ${options.jobId}\` when it is quiet.`,
      );
    },
  );

  function merged(
    mergeCommit: string,
    previousBaseCommit: string,
    extra: Partial<LandTaskBranchResult>,
    message: string,
  ): LandTaskBranchResult {
    return { outcome: 'merged', mergeCommit, previousBaseCommit, message, ...extra };
  }

  function deferred(
    previousBaseCommit: string,
    overlapping: readonly string[],
    why: string,
  ): LandTaskBranchResult {
    const listed = overlapping.length > 0 ? ` (${overlapping.join(', ')})` : '';
    return {
      outcome: 'merge_deferred',
      previousBaseCommit,
      overlappingPaths: overlapping,
      message:
        `Did not land ${options.branch}: ${why}${listed}. ${baseName} and your files are untouched and the job is kept. ` +
        `Commit or finish your own work there, then run \`snodo task merge ${options.jobId}\`.`,
    };
  }
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
  const headFile = path.join(worktreePath, '.git', 'HEAD');
  try {
    if (!lstatSync(path.join(worktreePath, '.git')).isDirectory() || !lstatSync(headFile).isFile())
      return undefined;
    if (readFileSync(headFile, 'utf8') !== `ref: ${taskRef}\n`) return undefined;
  } catch {
    return undefined;
  }
  const commit = await resolveCommit(worktreePath, taskRef);
  if (commit === undefined) return undefined;
  return { detached: false, name: taskRef.slice('refs/heads/'.length), ref: taskRef, commit };
}
