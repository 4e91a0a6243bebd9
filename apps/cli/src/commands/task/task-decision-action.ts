import { abandonJob, rejectJob } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';
import { taskOptions } from './task-options.js';

/** The flags of `snodo task reject`. */
export interface TaskRejectFlags {
  readonly reason?: string | undefined;
  readonly json?: boolean | undefined;
}

/** The flags of `snodo task abandon`. */
export interface TaskAbandonFlags {
  readonly force?: boolean | undefined;
  readonly json?: boolean | undefined;
}

/** `snodo task reject <job>`: records the decision; the branch stays until `snodo task abandon`. */
export async function taskRejectAction(
  context: CliContext,
  reference: string,
  flags: TaskRejectFlags,
): Promise<number> {
  const { queueDecisionAction } = await import('../queue/queue-decision-action.js');
  const queued = await queueDecisionAction(context, 'reject', reference, flags);
  if (queued !== undefined) return queued;
  const { jobId } = await resolveJobId(context.cwd, reference);
  const state = await rejectJob({
    ...taskOptions(context),
    jobId,
    reason: flags.reason ?? 'rejected without a reason',
  });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
  } else {
    context.stdout.write(
      `${context.out.green('✔')} rejected ${jobId}; its branch is kept for reference.\n  discard it: snodo task abandon ${jobId}\n`,
    );
  }
  return EXIT_CODES.done;
}

/** `snodo task abandon <job>`: removes the job's worktree and branch and closes it. */
export async function taskAbandonAction(
  context: CliContext,
  reference: string,
  flags: TaskAbandonFlags,
): Promise<number> {
  const { jobId } = await resolveJobId(context.cwd, reference);
  const result = await abandonJob({ ...taskOptions(context), jobId, force: flags.force === true });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const removed = [
      result.worktreeRemoved ? 'its worktree' : undefined,
      result.branchDeleted ? 'its branch' : undefined,
    ].filter((part) => part !== undefined);
    const what = removed.length === 0 ? 'nothing was left to remove' : `removed ${removed.join(' and ')}`;
    context.stdout.write(`${context.out.green('✔')} abandoned ${jobId}: ${what}.\n`);
  }
  return EXIT_CODES.done;
}
