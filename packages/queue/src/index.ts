// @snodo/queue: many machines. `snodo submit` enqueues, `snodo worker` runs tasks and lands them one at a
// time on the shared remote, `snodo task approve|reject` and `snodo job cancel` act on queue jobs.

/** Human decisions on queue jobs from any machine: approve or reject an escalated one, cancel one. */
export { type CancelQueuedJobResult, cancelQueuedJob } from './cancel-queued-job.js';
/** Whether the queue answers (`snodo doctor`). */
export { checkQueueConnection, type QueueConnectionCheck } from './check-queue-connection.js';
export { type DecideQueuedJobResult, decideQueuedJob } from './decide-queued-job.js';
/** Every error code this package throws, and the error `snodo` raises itself when `queue.url` is not set. */
export { type QueueError, type QueueErrorCode, QueueUrlMissingError } from './errors.js';
/** `queue.url` → the BullMQ objects of its backend (Redis, or BullMQ's PostgreSQL backend). */
export { openQueueConnection, type QueueBackendKind, type QueueConnection } from './queue-connection.js';
/** What the queues carry. */
export type { LandingJobData, TaskJobData, TaskJobResult } from './queue-jobs.js';
/** `snodo job status|wait` for a queue job, from any machine: where it is, how it ended. */
export {
  type QueuedJobStatus,
  type QueuedJobView,
  queuedJobEnded,
  readQueuedJob,
  waitForQueuedJob,
} from './read-queued-job.js';
/** `snodo worker`: take tasks, run them, push, land. */
export { type RunningWorker, type StartWorkerOptions, startWorker } from './start-worker.js';
/** `snodo submit`: enqueue one task; its job id is derived from what it asks. */
export { type SubmitTaskOptions, type SubmitTaskResult, submitTask } from './submit-task.js';
/** The worker's log lines. */
export { streamWorkerLog, type WorkerLog } from './worker-log.js';
