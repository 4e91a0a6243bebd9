import { cancelJob } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { waitForBackgroundExit } from '../../jobs/background-process-exit.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';
import { taskOptions } from '../task/task-options.js';

/** The flags of `snodo job cancel`. */
export interface JobCancelFlags {
  readonly reason?: string | undefined;
  readonly json?: boolean | undefined;
}

/**
 * `snodo job cancel <job>`: asks the running job to stop and waits (up to a minute) until it has. Exit 0
 * once it is no longer running; a job that has ended already is refused (`JOB_ACTION_REFUSED`, exit 2).
 */
export async function jobCancelAction(
  context: CliContext,
  reference: string,
  flags: JobCancelFlags,
): Promise<number> {
  const { queueCancelAction } = await import('../queue/queue-cancel-action.js');
  const queued = await queueCancelAction(context, reference, flags);
  if (queued !== undefined) return queued;
  const { repositoryRoot, jobId } = await resolveJobId(context.cwd, reference);
  const { state, stopped } = await cancelJob({ ...taskOptions(context), jobId, reason: flags.reason });
  if (stopped) await waitForBackgroundExit(repositoryRoot, state);
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
    return EXIT_CODES.done;
  }
  const { out } = context;
  if (!stopped) {
    context.stdout.write(
      `${out.yellow('!')} asked ${jobId} to stop; it is still running. \`snodo job wait ${jobId}\` waits for it.\n`,
    );
  } else if (state.status === 'cancelled') {
    context.stdout.write(`${out.green('✔')} cancelled ${jobId}: ${state.summary ?? ''}\n`);
  } else {
    context.stdout.write(
      `${out.yellow('!')} ${jobId} ended ${state.status}${state.outcome ? ` (${state.outcome})` : ''} before it could stop: ${state.summary ?? ''}\n`,
    );
  }
  return EXIT_CODES.done;
}
