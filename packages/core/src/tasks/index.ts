export { JobActionRefusedError } from '../errors.js';
export { type AbandonResult, abandonJob } from './abandon-job.js';
export { approveJob } from './approve-job.js';
export {
  type CheckpointSources,
  exportJobAttestation,
  type RepositoryAuditVerification,
  readRepositoryAudit,
  resetRepositoryAudit,
  verifyRepositoryAudit,
} from './audit-tasks.js';
export { diffJob, type JobDiff } from './diff-job.js';
export { type ContinueJobOptions, recordedWorkspace } from './existing-job-run.js';
export { mergeJob } from './merge-job.js';
export { type PruneJobResult, pruneJobs } from './prune-jobs.js';
export { rejectJob } from './reject-job.js';
export { type JobDetails, showJob } from './show-job.js';
export { openTaskScope, type TaskCommandOptions, type TaskScope } from './task-scope.js';
