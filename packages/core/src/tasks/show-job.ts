import { type JobDetails, readJobDetails } from '../jobs/index.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

export type { JobDetails } from '../jobs/index.js';

/** Reads a job's state, request, transcript location and gate files. */
export async function showJob(options: TaskCommandOptions & { jobId: string }): Promise<JobDetails> {
  const scope = await openTaskScope(options);
  return readJobDetails(scope.repositoryRoot, options.jobId);
}
