import { recordQueueDecision } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { taskOptions } from '../task/task-options.js';
import { queueJobConnection } from './queue-job-reference.js';
import { actorName } from './queue-settings.js';

/**
 * `snodo task approve|reject <job>` for a job of the shared queue, from any machine: the decision goes into
 * the job's shared state and this machine's audit log, and an approval enqueues the landing. `undefined`
 * when `reference` is not a queue job (the local command goes on).
 */
export async function queueDecisionAction(
  context: CliContext,
  decision: 'approve' | 'reject',
  reference: string,
  flags: { readonly reason?: string | undefined; readonly json?: boolean | undefined },
): Promise<number | undefined> {
  const connection = await queueJobConnection(context, reference);
  if (connection === undefined) return undefined;
  const { decideQueuedJob } = await import('@snodo/queue');
  const result = await decideQueuedJob({
    connection,
    jobId: reference,
    decision,
    actor: actorName(context),
    reason: flags.reason,
    record: async (made, job) => {
      await recordQueueDecision(taskOptions(context), {
        jobId: reference,
        decision: made.decision,
        reason: made.reason,
        workerId: job.workerId,
        taskCommit: job.taskCommit,
        by: made.by,
        at: made.at,
      });
    },
  });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else if (decision === 'approve') {
    context.stdout.write(
      `${context.out.green('✔')} approved ${reference}; its landing is queued (a worker lands it on ${connection.displayUrl}'s remote base).\n`,
    );
  } else {
    context.stdout.write(`${context.out.green('✔')} rejected ${reference}; it will not land.\n`);
  }
  return EXIT_CODES.done;
}
