import type { JobState } from '../jobs/job-state.js';
import { isLeftRunningByDeadProcess } from '../jobs/left-running.js';
import { listJobs } from '../jobs/read-job-files.js';
import { findMainCheckout } from '../project/find-main-checkout.js';
import type { TaskCommandOptions } from './task-scope.js';

/**
 * `reconcileDeadJobs` for commands that only read jobs: it looks for a job left `running` by a dead process
 * first, and loads config, the audit log and the reconciler only when there is one. Nearly always there is
 * none, so `snodo task list`, `task show`, `logs` and `meta` neither load the pipeline nor open the log.
 */
export async function reconcileDeadJobsLazily(options: TaskCommandOptions): Promise<JobState[]> {
  const { root } = await findMainCheckout(options.cwd);
  if (!listJobs(root).some((job) => isLeftRunningByDeadProcess(job))) return [];
  const { reconcileDeadJobs } = await import('./reconcile-dead-jobs.js');
  return reconcileDeadJobs(options);
}
