import { runGit } from '@snodo/coder-sdk/git';
import { readJobState } from '@snodo/core/jobs';

/** Where a worker's runs leave their task branches (`snodo/<job>-<slug>`, core's `taskBranchName`). */
const TASK_BRANCHES = 'refs/heads/snodo/';

/**
 * Deletes the task branches of a worker's clone that have landed: the branch's tip is in the history of the
 * remote base as just fetched (`landedRef`), and its job has ended in this clone. A worker keeps each run's
 * branch (the landing queue, not the worker, lands it, maybe on another machine), so without this a
 * long-lived worker gathers one branch per task. Nothing is lost: a landed tip is reachable from the base,
 * and `snodo task diff` of the job falls back to its recorded commits. A running job's branch also starts
 * on the base, which is why the job's state is read too. Each deletion is a compare-and-swap on the tip
 * that was listed. Returns how many branches were deleted.
 */
export async function pruneLandedBranches(clone: string, landedRef: string): Promise<number> {
  const listed = await runGit(
    [
      'for-each-ref',
      '--merged',
      landedRef,
      '--format=%(refname) %(objectname) %(worktreepath)',
      TASK_BRANCHES,
    ],
    { cwd: clone, readOnly: true },
  );
  const deletions = listed.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [ref = '', tip = '', ...worktree] = line.split(' ');
      return { ref, tip, checkedOut: worktree.join(' ') !== '' };
    })
    // A branch checked out in a worktree (a kept one) stays: `update-ref` would leave it on an unborn branch.
    .filter(({ ref, checkedOut }) => !checkedOut && jobEndedOnBranch(clone, ref.slice('refs/heads/'.length)))
    .map(({ ref, tip }) => [ref, tip] as const);
  if (deletions.length === 0) return 0;
  // One transaction: a branch that moved since it was listed fails it whole, and nothing is deleted until
  // the next job's prune (the caller logs it); landed branches wait, nothing is lost.
  await runGit(['update-ref', '--stdin'], {
    cwd: clone,
    input: deletions.map(([ref, tip]) => `delete ${ref} ${tip}\n`).join(''),
  });
  return deletions.length;
}

/** Whether the branch is the one an ended job of this clone recorded (`snodo/<jobId>-<slug>`). */
function jobEndedOnBranch(clone: string, branch: string): boolean {
  const jobId = /^snodo\/([^-]+)-/.exec(branch)?.[1];
  if (jobId === undefined) return false;
  try {
    const state = readJobState(clone, jobId);
    return state.status !== 'running' && state.isolation?.branch === branch;
  } catch {
    // No such job here (a branch somebody else made under snodo/): not ours to delete.
    return false;
  }
}
