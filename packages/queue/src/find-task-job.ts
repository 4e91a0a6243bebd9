import type { Job, Queue } from 'bullmq';
import { QueueJobNotFoundError } from './errors.js';
import type { QueueConnection } from './queue-connection.js';
import type { TaskJobData, TaskJobResult } from './queue-jobs.js';

/** A task job and its state (`waiting`, `active`, `completed`…), or `QUEUE_JOB_NOT_FOUND`. */
export async function findTaskJob(
  connection: QueueConnection,
  queue: Queue<TaskJobData, TaskJobResult>,
  jobId: string,
): Promise<{ job: Job<TaskJobData, TaskJobResult>; state: string }> {
  const job = await queue.getJob(jobId);
  if (job === undefined || job === null)
    throw new QueueJobNotFoundError({ jobId, url: connection.displayUrl });
  return { job, state: await job.getState() };
}
