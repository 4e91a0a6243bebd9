import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { queueJobConnection } from './queue-job-reference.js';
import { actorName } from './queue-settings.js';

/**
 * `snodo job cancel <job>` for a job of the shared queue: a waiting job is removed; a running one is marked
 * and its worker told to abort the run (which stops the coder's process group); waits up to 30 s for it to
 * end. A job whose run is done but which has not landed yet has its landing withdrawn; a landed one is
 * refused (`QUEUE_JOB_STATE`, with how to revert it). `undefined` when `reference` is not a queue job.
 */
export async function queueCancelAction(
  context: CliContext,
  reference: string,
  flags: { readonly json?: boolean | undefined },
): Promise<number | undefined> {
  const connection = await queueJobConnection(context, reference);
  if (connection === undefined) return undefined;
  const { cancelQueuedJob } = await import('@snodo/queue');
  const result = await cancelQueuedJob({ connection, jobId: reference, actor: actorName(context) });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else if (result.action === 'removed') {
    context.stdout.write(`${context.out.green('✔')} cancelled ${reference} before any worker started it.\n`);
  } else if (result.action === 'landing-cancelled') {
    context.stdout.write(
      `${context.out.green('✔')} cancelled ${reference} before it landed: its landing was withdrawn and nothing of it is on the base (its task commit stays at refs/snodo/jobs/${reference}).\n`,
    );
  } else if (result.action === 'landing-unconfirmed') {
    context.stdout.write(
      `${context.out.yellow('!')} asked that ${reference} not land, but cannot say yet whether it was in time: ${result.detail ?? ''}.\n`,
    );
  } else if (result.finished !== undefined) {
    context.stdout.write(
      `${context.out.green('✔')} cancelled ${reference} on ${result.finished.workerId}: ${result.finished.summary}\n`,
    );
  } else {
    context.stdout.write(
      `${context.out.yellow('!')} asked the worker running ${reference} to stop; it has not ended yet.\n`,
    );
  }
  return EXIT_CODES.done;
}
