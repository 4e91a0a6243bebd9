import type { JobState } from '../jobs/job-state.js';
import { isLeftRunningByDeadProcess } from '../jobs/left-running.js';
import { listJobs, readJobState } from '../jobs/read-job-files.js';
import { findMainCheckoutForReading } from '../project/find-main-checkout.js';
import type { TaskCommandOptions } from './task-scope.js';

/**
 * `reconcileDeadJobs` for commands that only read jobs: it looks for a job left `running` by a dead process
 * first, and loads config, the audit log and the reconciler only when there is one. Nearly always there is
 * none, so `snodo task list`, `task show`, `logs` and `meta` neither load the pipeline nor open the log,
 * and in an ordinary checkout start no git either (`findMainCheckoutForReading`).
 * With `concerning`, only those jobs are looked at: `snodo logs --follow` and `job wait` ask every quarter
 * second, and reading every job of a repository with thousands each time made them linear in its history.
 */
export async function reconcileDeadJobsLazily(
  options: TaskCommandOptions,
  concerning?: { readonly jobIds: readonly string[] },
): Promise<JobState[]> {
  const { root } = await findMainCheckoutForReading(options.cwd, options.env);
  const looked = concerning === undefined ? listJobs(root) : readableJobs(root, concerning.jobIds);
  return (await reconcileWhenOneIsDead(looked, options)) ?? [];
}

/**
 * `reconcileDeadJobsLazily`, and every job of the repository as it stands afterwards: the jobs are read
 * once when none needed reconciling (nearly always), so `snodo task list` reads each `state.json` once,
 * not once to look for dead jobs and again to list them.
 */
export async function reconcileAndListJobs(
  options: TaskCommandOptions,
): Promise<{ readonly jobs: JobState[]; readonly reconciled: JobState[] }> {
  const { root } = await findMainCheckoutForReading(options.cwd, options.env);
  const jobs = listJobs(root);
  const reconciled = await reconcileWhenOneIsDead(jobs, options);
  return reconciled === undefined ? { jobs, reconciled: [] } : { jobs: listJobs(root), reconciled };
}

/** Every dead job reconciled when one of `looked` was left running by a dead process; `undefined` if none was. */
async function reconcileWhenOneIsDead(
  looked: readonly JobState[],
  options: TaskCommandOptions,
): Promise<JobState[] | undefined> {
  if (!looked.some((job) => isLeftRunningByDeadProcess(job))) return undefined;
  const { reconcileDeadJobs } = await import('./reconcile-dead-jobs.js');
  return reconcileDeadJobs(options);
}

/** The states of `jobIds` that can be read: a missing or unreadable job is its caller's error to report. */
function readableJobs(root: string, jobIds: readonly string[]): JobState[] {
  return jobIds.flatMap((jobId) => {
    try {
      return [readJobState(root, jobId)];
    } catch {
      return [];
    }
  });
}
