import { readJobDetails, reconcileDeadJobs } from '@snodo/core/jobs';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';
import { formatJobMeta } from '../../output/job-meta.js';
import { taskOptions } from '../task/task-options.js';

/** The flags of `snodo meta`. */
export interface MetaFlags {
  readonly json?: boolean | undefined;
}

/** `snodo meta <job>`: reads the job's record and prints it as one screen (or as JSON). */
export async function metaAction(context: CliContext, reference: string, flags: MetaFlags): Promise<number> {
  const { jobId, repositoryRoot } = await resolveJobId(context.cwd, reference);
  // A job whose process died is shown as `interrupted`, not `running` (as `task show` does).
  await reconcileDeadJobs(taskOptions(context), { jobIds: [jobId] });
  const details = readJobDetails(repositoryRoot, jobId);
  if (flags.json === true) context.stdout.write(`${JSON.stringify(details, null, 2)}\n`);
  else context.stdout.write(formatJobMeta(details, context.out));
  return EXIT_CODES.done;
}
