import { setTimeout as sleep } from 'node:timers/promises';
import { type JobState, readJobState, reconcileDeadJobs } from '@snodo/core/jobs';
import type { CliContext } from '../../cli-context.js';
import { CliError } from '../../errors/cli-error.js';
import { exitCodeForResult } from '../../exit-codes.js';
import { waitForBackgroundExit } from '../../jobs/background-process-exit.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';
import { taskOptions } from '../task/task-options.js';

/** The flags of `snodo job wait`. */
export interface JobWaitFlags {
  readonly timeout?: number | undefined;
  readonly json?: boolean | undefined;
}

/** How often the job's state is read while it runs. */
const POLL_INTERVAL_MS = 200;

/** One line for the end of a job: its status, outcome and summary. */
function endLine(context: CliContext, state: JobState): string {
  const { out } = context;
  const status = state.status === 'done' ? out.green(state.status) : out.yellow(state.status);
  const outcome = state.outcome === undefined ? '' : ` (${state.outcome})`;
  return `${state.jobId} ${status}${outcome}${state.summary ? `: ${state.summary}` : ''}\n`;
}

/**
 * `snodo job wait <job>`: blocks until the job is no longer running and exits with the code the
 * foreground run would have had (`exitCodeForResult` of its final state). A job whose process died is
 * reconciled `interrupted` (130) rather than waited for forever.
 */
export async function jobWaitAction(
  context: CliContext,
  reference: string,
  flags: JobWaitFlags,
): Promise<number> {
  const { repositoryRoot, jobId } = await resolveJobId(context.cwd, reference);
  const deadline = flags.timeout === undefined ? undefined : Date.now() + flags.timeout * 1000;
  let state = readJobState(repositoryRoot, jobId);
  let lastReconcile = 0;
  while (state.status === 'running') {
    if (deadline !== undefined && Date.now() >= deadline) {
      throw new CliError('JOB_WAIT_TIMEOUT', {
        message: `${jobId} is still running after ${flags.timeout}s; it goes on.`,
        fix: `snodo job wait ${jobId}   (or: snodo job cancel ${jobId})`,
      });
    }
    // Once a second is enough to notice a dead process (reconciling reads the job's state.json, and opens
    // config and the audit log when its process is gone).
    if (Date.now() - lastReconcile >= 1000) {
      await reconcileDeadJobs(taskOptions(context), { jobIds: [jobId] });
      lastReconcile = Date.now();
    }
    state = readJobState(repositoryRoot, jobId);
    if (state.status === 'running') await sleep(POLL_INTERVAL_MS);
  }
  // The job's audit record (job-end, its checkpoint) is complete once a background run's process is gone.
  await waitForBackgroundExit(repositoryRoot, state);
  if (flags.json === true) context.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
  else context.stdout.write(endLine(context, state));
  return exitCodeForResult(state);
}
