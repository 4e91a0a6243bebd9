export { isSameProcessAlive, processStartTimeMs } from '@snodo/foundation';
export { JobNotFoundError } from '../errors.js';
export { createJobId, isJobId } from './job-id.js';
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
export { isLeftRunningByDeadProcess } from './left-running.js';
export { type JobDetails, readJobDetails } from './read-job-details.js';
export { reconcileInterruptedJobs } from './reconcile-jobs.js';
export { listPossiblyRunningJobs } from './running-jobs-index.js';
