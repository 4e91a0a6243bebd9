import { type CoderV1Result, SnodoMutationError, WorktreeNotCleanError } from '@snodo/coder-sdk';
import { CoderContractViolationError } from '../errors.js';
import {
  commitWithMessage,
  type DiffNameStatusEntry,
  diffNameStatus,
  GitCommandError,
  git,
  workingTreeStatus,
} from '../git/index.js';
import { readCommitParents } from '../git/read-commit-parents.js';
import { applyFileProposals } from '../workspace/index.js';
import type { JobRun } from './job-run.js';
import type { ResolvedCoder } from './stage-resolve.js';
import { taskCommitMessage } from './task-commit-message.js';

function isSnodoPath(path: string): boolean {
  return path === '.snodo' || path.toLowerCase().startsWith('.snodo/');
}

/** Writes an engine-managed coder's proposals (paths confined to the worktree) and commits them. */
export async function commitProposals(
  run: JobRun,
  coder: ResolvedCoder,
  workspace: string,
  result: CoderV1Result,
  isolated: boolean,
): Promise<string | undefined> {
  applyFileProposals(workspace, result.proposals ?? []);
  // Stage and commit straight away (a `status` first would cost a process on every attempt that changed
  // something); `git commit` refusing with nothing staged is then told apart by the status it skipped.
  return commitWithMessage({
    cwd: workspace,
    stageAll: true,
    // A task workspace's config names the committer (written at its creation); under --no-isolation the
    // user's own git decides.
    ...(isolated ? { identity: 'configured' as const } : {}),
    message: taskCommitMessage({
      jobId: run.jobId,
      task: run.options.task,
      coderId: coder.adapter.id,
      coderVersion: result.cliVersion ?? coder.availability.version,
    }),
  }).catch(async (error: unknown) => {
    // NOTE: `git commit` exits 1 when nothing is staged; only a clean tree makes that "no change".
    if (GitCommandError.isInstance(error) && error.exitCode === 1) {
      if ((await workingTreeStatus(workspace)).length === 0) return undefined;
    }
    throw error;
  });
}

/**
 * Re-checks what the attempt left, whatever kind of coder ran: at most one new commit, which is the branch
 * tip; nothing under `.snodo/`; a clean worktree. An adapter not built on the SDK is held to the contract
 * here too.
 */
export async function checkAttempt(
  coder: ResolvedCoder,
  workspace: string,
  headBefore: string,
  facts: { committedEverything: boolean } = { committedEverything: false },
): Promise<{ commit?: string; changedFiles: string[]; changes: DiffNameStatusEntry[] }> {
  const { head, count } = await commitsSince(workspace, headBefore);
  const violation = (problem: string) =>
    new CoderContractViolationError({
      coderId: coder.adapter.id,
      displayName: coder.adapter.displayName,
      problem,
    });
  if (count > 1) throw violation(`the attempt added ${count} commits to the task branch instead of one`);
  const changes = count === 0 ? [] : await diffNameStatus({ cwd: workspace, from: headBefore, to: head });
  const touched = changes.flatMap((change) => [
    change.path,
    ...(change.previousPath ? [change.previousPath] : []),
  ]);
  const snodoPaths = touched.filter(isSnodoPath);
  if (snodoPaths.length > 0) {
    throw new SnodoMutationError({
      coderId: coder.adapter.id,
      displayName: coder.adapter.displayName,
      paths: snodoPaths,
    });
  }
  const leftover = facts.committedEverything ? [] : await workingTreeStatus(workspace);
  if (leftover.length > 0) {
    throw new WorktreeNotCleanError({
      workspace,
      statusLines: leftover.map((entry) => `${entry.index}${entry.workTree} ${entry.path}`),
    });
  }
  return count === 0
    ? { changedFiles: [], changes }
    : { commit: head, changedFiles: changes.map((change) => change.path).sort(), changes };
}

/** An in-place coder that reports a commit must report the one the task branch is at. */
export function assertReportedCommit(
  coder: ResolvedCoder,
  result: CoderV1Result,
  checked: { commit?: string },
  headBefore: string,
): void {
  if (coder.adapter.kind !== 'in-place' || result.commit === undefined || result.commit === checked.commit) {
    return;
  }
  throw new CoderContractViolationError({
    coderId: coder.adapter.id,
    displayName: coder.adapter.displayName,
    problem: `it reported commit ${result.commit} but the task branch is at ${checked.commit ?? headBefore}`,
  });
}

/**
 * HEAD and how many commits it is past `headBefore`. One `rev-list --parents` answers the usual cases (nothing new, or
 * one commit on top); anything else is counted by `rev-list`.
 */
async function commitsSince(workspace: string, headBefore: string): Promise<{ head: string; count: number }> {
  // HEAD's commit object read through the workspace's reader answers it without a process; git's own
  // `rev-list` when there is no reader (and for its error when HEAD names nothing).
  const read = await readCommitParents(workspace, 'HEAD');
  const [head = '', ...parents] =
    read === undefined
      ? (
          await git(['rev-list', '--max-count=1', '--parents', 'HEAD', '--'], {
            cwd: workspace,
            readOnly: true,
          })
        ).stdout
          .trim()
          .split(' ')
      : [read.commit, ...read.parents];
  if (head === headBefore) return { head, count: 0 };
  if (parents.length === 1 && parents[0] === headBefore) return { head, count: 1 };
  const counted = await git(['rev-list', '--count', `${headBefore}..${head}`], {
    cwd: workspace,
    readOnly: true,
  });
  return { head, count: Number(counted.stdout.trim()) };
}
