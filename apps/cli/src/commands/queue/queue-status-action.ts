import type { QueuedJobView } from '@snodo/queue';
import type { CliContext } from '../../cli-context.js';
import { CliError } from '../../errors/cli-error.js';
import { EXIT_CODES, exitCodeForResult } from '../../exit-codes.js';
import { queueJobConnection } from './queue-job-reference.js';

/** The lines `snodo job status` prints for a queue job. */
function describe(context: CliContext, view: QueuedJobView): string {
  const { out } = context;
  const status = view.status === 'done' ? out.green(view.status) : out.yellow(view.status);
  const lines = [
    `${view.jobId} ${status}${view.outcome === undefined ? '' : ` (${view.outcome})`}: ${view.summary}`,
    `  task:      ${view.task}`,
    `  base:      ${view.base} at ${view.baseCommit.slice(0, 12)}`,
    `  submitted: ${view.submittedAt} by ${view.submittedBy}`,
  ];
  if (view.workerId !== undefined) {
    lines.push(`  ran on:    ${view.workerId} (there: snodo task show ${view.localJobId ?? ''})`);
  }
  if (view.taskCommit !== undefined) {
    // The lander deletes refs/snodo/jobs/<job> once it has landed; the commit stays in the base's history.
    const ref = view.landedCommit === undefined ? ` (refs/snodo/jobs/${view.jobId})` : '';
    lines.push(`  commit:    ${view.taskCommit}${ref}`);
  }
  if (view.landedCommit !== undefined) {
    lines.push(
      `  landed:    ${view.landedCommit}${view.landedBy === undefined ? '' : ` by ${view.landedBy}`}`,
    );
  }
  if (view.decision !== undefined) {
    const reason = view.decision.reason === undefined ? '' : `: ${view.decision.reason}`;
    lines.push(
      `  decision:  ${view.decision.decision} by ${view.decision.by} at ${view.decision.at}${reason}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `snodo job status <job>` for a job of the shared queue, from any machine: where it is (waiting, running,
 * landing) or how it ended, read from the queue. `undefined` when `reference` is not a queue job.
 */
export async function queueStatusAction(
  context: CliContext,
  reference: string,
  flags: { readonly json?: boolean | undefined },
): Promise<number | undefined> {
  const connection = await queueJobConnection(context, reference);
  if (connection === undefined) return undefined;
  const { readQueuedJob } = await import('@snodo/queue');
  const view = await readQueuedJob({ connection, jobId: reference });
  context.stdout.write(flags.json === true ? `${JSON.stringify(view, null, 2)}\n` : describe(context, view));
  return EXIT_CODES.done;
}

/**
 * `snodo job wait <job>` for a queue job: polls the queue until the job has ended — landed (or kept) when it
 * went to the landing queue — and exits as a local job's run would (0 landed or nothing to do, 1 escalated
 * or kept, 130 cancelled…). A timeout exits 3 and leaves the job going. `undefined` when not a queue job.
 */
export async function queueWaitAction(
  context: CliContext,
  reference: string,
  flags: { readonly timeout?: number | undefined; readonly json?: boolean | undefined },
): Promise<number | undefined> {
  const connection = await queueJobConnection(context, reference);
  if (connection === undefined) return undefined;
  const { queuedJobEnded, waitForQueuedJob } = await import('@snodo/queue');
  const view = await waitForQueuedJob({
    connection,
    jobId: reference,
    timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000,
  });
  if (!queuedJobEnded(view)) {
    throw new CliError('JOB_WAIT_TIMEOUT', {
      message: `${reference} is still ${view.status} after ${flags.timeout}s (${view.summary}); it goes on.`,
      fix: `snodo job wait ${reference}   (or: snodo job cancel ${reference})`,
    });
  }
  context.stdout.write(flags.json === true ? `${JSON.stringify(view, null, 2)}\n` : describe(context, view));
  return exitCodeForResult(view);
}
