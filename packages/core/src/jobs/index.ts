export { createJobId, isJobId } from './job-id.js';
export { JobNotFoundError } from './job-not-found-error.js';
export { type JobPaths, jobPaths, jobsDirectory, snodoDirectory } from './job-paths.js';
export {
  type AttemptRecord,
  type DecisionRecord,
  type JobState,
  type JobStatus,
  type JobTask,
  jobStateSchema,
  jobStatusSchema,
  jobTaskSchema,
  type RoleUsage,
  roleUsageSchema,
  type VerdictRecord,
  verdictRecordSchema,
} from './job-state.js';
export {
  type CreatedJob,
  createJob,
  listJobs,
  readJobState,
  readJobTask,
  updateJobState,
} from './job-store.js';
export { isSameProcessAlive, processStartTimeMs } from './process-identity.js';
export { reconcileInterruptedJobs } from './reconcile-jobs.js';
