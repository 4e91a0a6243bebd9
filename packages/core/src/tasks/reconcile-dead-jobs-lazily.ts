import type { JobState } from '../jobs/job-state.js';
import { isLeftRunningByDeadProcess } from '../jobs/left-running.js';
import { listJobs, readJobState } from '../jobs/read-job-files.js';
import { findMainCheckout } from '../project/find-main-checkout.js';
import type { TaskCommandOptions } from './task-scope.js';

/**
 * `reconcileDeadJobs` for commands that only read jobs: it looks for a job left `running` by a dead process
 * first, and loads config, the audit log and the reconciler only when there is one. Nearly always there is
 * none, so `snodo task list`, `task show`, `logs` and `meta` neither load the pipeline nor open the log.
 * With `concerning`, only those jobs are looked at.
 */
export async function reconcileDeadJobsLazily(
  options: TaskCommandOptions,
  concerning?: { readonly jobIds: readonly string[] },
): Promise<JobState[]> {
  if (concerning === undefined) return (await reconcileAndListJobs(options)).reconciled;
  // A command about one job looks at that job only: `snodo logs --follow` and `job wait` ask again every
  // quarter second, and reading every job of a repository with thousands each time made them linear in
  // its history. When the job is left running, all dead jobs are reconciled, as without `concerning`.
  const { root } = await findMainCheckout(options.cwd);
  const dead = concerning.jobIds.some((jobId) => {
    try {
      return isLeftRunningByDeadProcess(readJobState(root, jobId));
    } catch {
      return false; // A missing or unreadable job is the caller's error to report, not this one's.
    }
  });
  if (!dead) return [];
  const { reconcileDeadJobs } = await import('./reconcile-dead-jobs.js');
  return reconcileDeadJobs(options);
}

/**
 * `reconcileDeadJobsLazily`, and every job of the repository as it stands afterwards: the jobs are read
 * once when none needed reconciling (nearly always), so `snodo task list` reads each `state.json` once,
 * not once to look for dead jobs and again to list them.
 */
export async function reconcileAndListJobs(
  options: TaskCommandOptions,
): Promise<{ readonly jobs: JobState[]; readonly reconciled: JobState[] }> {
  const { root } = await findMainCheckout(options.cwd);
  const jobs = listJobs(root);
  if (!jobs.some((job) => isLeftRunningByDeadProcess(job))) return { jobs, reconciled: [] };
  const { reconcileDeadJobs } = await import('./reconcile-dead-jobs.js');
  const reconciled = await reconcileDeadJobs(options);
  return { jobs: listJobs(root), reconciled };
}
