// @snodo/core/jobs: a repository's jobs, read without loading the pipeline — no zod, yaml, protocol, AI
// SDK or audit log — for commands that only look at jobs (`snodo task list`, `task show`, `logs`, `meta`)
// and must start fast. Acting on a job (approve, merge, abandon…) goes through the main entry.

/**
 * Writes a file whole or not at all (temporary file, optional fsync, rename, mode): the CLI writes a
 * background run's request with it, as core writes `state.json`.
 */
export { writeFileAtomic } from './fs/atomic-write.js';
/** A new job id (`snodo run --background` reserves one before the run starts). */
export { createJobId, isJobId } from './jobs/job-id.js';
/** Where a job's files are, and the directory of all jobs. */
export { type JobPaths, jobPaths, jobsDirectory } from './jobs/job-paths.js';
/** A job's `state.json` and `task.json`, as the main entry's schemas describe them. */
export type { JobState, JobStatus, JobTask } from './jobs/job-state.js';
/** Everything recorded about one job: state, request, transcript, gate files. */
export { type JobDetails, readJobDetails } from './jobs/read-job-details.js';
/** Every job of a repository, and one job's state and request, each checked against its schema. */
export { listJobs, readJobState, readJobTask } from './jobs/read-job-files.js';
/**
 * The main checkout of the repository containing a directory, even from inside a linked worktree; the
 * `ForReading` form finds an ordinary checkout without starting git, for commands that only read jobs.
 */
export { findMainCheckout, findMainCheckoutForReading } from './project/find-main-checkout.js';
/**
 * Marks jobs whose process died `interrupted` (audited), as the main entry's `reconcileDeadJobs` does; it
 * loads config and opens the audit log only when such a job exists. Given `{ jobIds }`, it looks at those
 * jobs only, and reconciles every dead job when one of them is. `reconcileAndListJobs` also returns every
 * job as it stands afterwards, read once when none needed reconciling.
 */
export {
  reconcileAndListJobs,
  reconcileDeadJobsLazily as reconcileDeadJobs,
} from './tasks/reconcile-dead-jobs-lazily.js';
/** What the task commands are given: the directory, the environment, the home directory, the actor. */
export type { TaskCommandOptions } from './tasks/task-scope.js';
