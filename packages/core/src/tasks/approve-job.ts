import { JobActionRefusedError } from '../errors.js';
import { readJobState } from '../jobs/index.js';
import { watchBudget } from '../pipeline/budget-halt.js';
import { endingWithCancelRequest } from '../pipeline/cancel-request.js';
import { finishJob } from '../pipeline/finish-job.js';
import { prepareJobContainment } from '../pipeline/job-containment.js';
import { endingFromError, type JobEnding } from '../pipeline/job-ending.js';
import { executeAndLand, findingsFrom, land } from '../pipeline/run-task.js';
import type { RunTaskResult } from '../pipeline/run-task-result.js';
import { resolveCoder } from '../pipeline/stage-resolve.js';
import { runWorkspaceSetup } from '../pipeline/stage-setup.js';
import { openWorkspace } from '../pipeline/stage-workspace.js';
import type { RunWorkspace } from '../pipeline/task-workspace.js';
import { type ContinueJobOptions, recordedWorkspace, withExistingJobRun } from './existing-job-run.js';
import { type BudgetRaise, raisedBudget, recordBudgetRaise } from './raise-budget.js';
import { openTaskScope } from './task-scope.js';

/**
 * A human approves an escalated job (SPEC §5): the decision (who, when, why) is audited, then the job
 * goes on — a job escalated after the coder ran is landed; one escalated before it ran goes on to the
 * coder, the post-execute gates and landing. Blockers and validator errors cannot be approved away.
 */
export async function approveJob(
  options: ContinueJobOptions & BudgetRaise & { reason: string },
): Promise<RunTaskResult> {
  const scope = await openTaskScope(options);
  const state = readJobState(scope.repositoryRoot, options.jobId);
  if (state.status !== 'halted' || state.outcome !== 'escalated') {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'approve',
      reason:
        state.outcome === 'blocker' || state.outcome === 'validator_error'
          ? `it halted with '${state.outcome}', which a human cannot approve away`
          : `only escalated jobs can be approved, and it is ${state.status}${state.outcome ? ` (${state.outcome})` : ''}`,
      hint: `See why with 'snodo task show ${options.jobId}'.`,
    });
  }
  // A job stopped at its budget goes on only under a higher cap (SPEC §15); refused here when there is none.
  const budget = raisedBudget(state, options);
  const overBudget = state.budget?.exceeded;
  // A job escalated before execution has no workspace yet (it is made once the pre-execute gates pass):
  // approving it makes one. One escalated after the coder ran continues in the one it has.
  const recordedBefore = recordedWorkspace(state);
  if (recordedBefore === undefined && state.attempts.length > 0) {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'approve',
      reason: 'it has no workspace to continue in',
    });
  }
  return withExistingJobRun(options, async (run, recorded) => {
    let workspace: RunWorkspace | undefined = recordedBefore;
    const decidedAt = new Date().toISOString();
    await run.audit(
      'job-approve',
      { by: scope.actor, at: decidedAt, reason: options.reason, outcome: 'escalated' },
      scope.actor,
    );
    await run.updateState((current) => ({
      ...current,
      decisions: [
        ...current.decisions,
        { action: 'approve', by: scope.actor, at: decidedAt, reason: options.reason },
      ],
    }));
    if (overBudget !== undefined) await recordBudgetRaise(run, recorded, budget, scope.actor);
    else await watchBudget(run, budget);
    let ending: JobEnding;
    try {
      if (recorded.attempts.length > 0 && overBudget === undefined) {
        // Approving a landing held because the base gained commits snodo did not land accepts exactly the
        // base the human was shown; anything newer escalates again.
        await run.updateState((current) =>
          current.isolation?.pendingBaseCommit === undefined
            ? current
            : {
                ...current,
                isolation: { ...current.isolation, acceptedBaseCommit: current.isolation.pendingBaseCommit },
              },
        );
        ending = await land(run, workspace as RunWorkspace);
      } else {
        const mode = run.context.protocol.modes.find((candidate) => candidate.mode_id === recorded.mode);
        const coder = await resolveCoder(run.context, run.options, mode);
        for (const secret of coder.secrets) run.auditTrail.addSecret(secret);
        const opened =
          workspace === undefined
            ? await openWorkspace(run, coder)
            : {
                workspace,
                containment: prepareJobContainment({
                  context: run.context,
                  paths: run.paths,
                  workspace,
                  coder: coder.adapter,
                  coderExecutable: coder.availability.binaryPath,
                  coderConfig: coder.coderConfig,
                }),
              };
        workspace = opened.workspace;
        const setup = recordedBefore === undefined ? await runWorkspaceSetup(run, opened) : undefined;
        // The human approved the pre-execute phase: the coder runs once and the post-execute gates judge it
        // once. If those escalate, that is a new decision about the change, not this one asked again. A job
        // stopped at its budget instead goes on where it stopped, with the fix attempts it had left.
        const done = recorded.attempts.length;
        const left = 1 + run.context.protocol.execution.max_fix_attempts - done;
        // Stopped mid-attempt: the coder continues its work. Stopped before a fix round: that round runs, with
        // the findings of the gates that asked for it.
        const heldFixRound = overBudget?.phase === 'post_execute' && done > 0;
        const findings = heldFixRound
          ? findingsFrom(
              recorded.verdicts.filter(
                (verdict) => verdict.phase === 'post_execute' && verdict.attempt === done,
              ),
            )
          : [];
        ending =
          setup ??
          (await executeAndLand(run, {
            coder,
            mode: mode ?? run.context.protocol.modes[0]!,
            ...opened,
            maxAttempts: overBudget === undefined ? 1 : Math.max(1, left),
            firstAttempt: done + 1,
            continuing: overBudget?.phase === 'execute' && done > 0,
            findings,
          }));
      }
    } catch (error) {
      ending = endingFromError(error, run.signal?.aborted === true);
    }
    return finishJob(run, await endingWithCancelRequest(run, ending), workspace);
  });
}
