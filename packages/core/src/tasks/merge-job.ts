import { JobActionRefusedError } from '../errors.js';
import type { LandingStrategy } from '../isolation/index.js';
import { readJobState } from '../jobs/index.js';
import { endingWithCancelRequest } from '../pipeline/cancel-request.js';
import { finishJob } from '../pipeline/finish-job.js';
import { endingFromError, type JobEnding } from '../pipeline/job-ending.js';
import { land } from '../pipeline/run-task.js';
import type { RunTaskResult } from '../pipeline/run-task-result.js';
import { type ContinueJobOptions, recordedWorkspace, withExistingJobRun } from './existing-job-run.js';
import { openTaskScope } from './task-scope.js';

/** Outcomes whose gates passed but whose landing did not finish: `snodo task merge` lands them later. */
const MERGEABLE = new Set(['merge_deferred', 'merge_conflict', 'not_fast_forward', 'branch_kept']);

/**
 * Lands a job whose gates passed but whose merge was deferred (the user's uncommitted changes overlapped),
 * conflicted (after the user resolved it on the branch), could not fast-forward, or was kept on its branch
 * by `merge_strategy: none`. Governance halts are not merged here: escalations go through approve.
 */
export async function mergeJob(
  options: ContinueJobOptions & { strategy?: LandingStrategy },
): Promise<RunTaskResult> {
  const scope = await openTaskScope(options);
  const state = readJobState(scope.repositoryRoot, options.jobId);
  if (!state.outcome || !MERGEABLE.has(state.outcome)) {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'merge',
      reason: `its outcome is '${state.outcome ?? state.status}'; only jobs whose gates passed and whose landing did not finish can be merged`,
      hint:
        state.outcome === 'escalated'
          ? `Approve it instead: 'snodo task approve ${options.jobId} --reason …'.`
          : undefined,
    });
  }
  const workspace = recordedWorkspace(state);
  if (!workspace?.isolated) {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'merge',
      reason: 'it ran without a task branch',
    });
  }
  return withExistingJobRun(options, async (run) => {
    const decidedAt = new Date().toISOString();
    await run.audit(
      'job-merge',
      { by: scope.actor, at: decidedAt, previous_outcome: state.outcome },
      scope.actor,
    );
    await run.updateState((current) => ({
      ...current,
      decisions: [...current.decisions, { action: 'merge', by: scope.actor, at: decidedAt }],
    }));
    // `branch_kept` means the protocol asked for no merge; an explicit `task merge` merges it.
    const strategy = options.strategy ?? (state.outcome === 'branch_kept' ? 'merge' : undefined);
    let ending: JobEnding;
    try {
      ending = await land(run, workspace, strategy);
    } catch (error) {
      ending = endingFromError(error, run.signal?.aborted === true);
    }
    return finishJob(run, await endingWithCancelRequest(run, ending), workspace);
  });
}
