import { JobActionRefusedError } from '../errors.js';
import { type JobState, readJobState } from '../jobs/index.js';
import { recordJobDecision } from './record-job-decision.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

/**
 * A human rejects an escalated job: the decision is audited and the job ends `rejected`. Its branch and
 * worktree stay for reference until `snodo task abandon`.
 */
export async function rejectJob(
  options: TaskCommandOptions & { jobId: string; reason: string },
): Promise<JobState> {
  const scope = await openTaskScope(options);
  const state = readJobState(scope.repositoryRoot, options.jobId);
  if (state.status !== 'halted') {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'reject',
      reason: `only halted jobs wait for a decision, and it is ${state.status}`,
    });
  }
  const at = new Date().toISOString();
  return recordJobDecision(scope, {
    jobId: options.jobId,
    type: 'job-reject',
    data: { by: scope.actor, at, reason: options.reason, outcome: state.outcome },
    mutate: (current) => ({
      ...current,
      status: 'rejected',
      summary: `Rejected by ${scope.actor}: ${options.reason}`,
      decisions: [...current.decisions, { action: 'reject', by: scope.actor, at, reason: options.reason }],
    }),
  });
}
