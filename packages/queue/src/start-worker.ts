import { type CoderCatalog, registerWorkerKey, requireRemote } from '@snodo/core';
import type { Job } from 'bullmq';
import { CloneLock } from './clone-git.js';
import { WorkerSetupError } from './errors.js';
import { type LandingJobResult, landQueuedTask } from './land-queued-task.js';
import { DEFAULT_LANDING_BATCH } from './landing-riders.js';
import type { QueueConnection } from './queue-connection.js';
import {
  CANCEL_EVENT,
  LANDING_QUEUE,
  type LandingJobData,
  TASK_QUEUE,
  type TaskJobData,
  type TaskJobResult,
} from './queue-jobs.js';
import { runQueuedTask } from './run-queued-task.js';
import type { WorkerContext } from './worker-context.js';
import { resolveWorkerId } from './worker-identity.js';
import type { WorkerLog } from './worker-log.js';

/** What `snodo worker` starts. */
export interface StartWorkerOptions {
  readonly connection: QueueConnection;
  /** The worker's own clone of the shared remote. */
  readonly clone: string;
  /** The shared remote's name in that clone. Default `origin`. */
  readonly remote?: string | undefined;
  readonly snodoHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory?: string | undefined;
  readonly coders: CoderCatalog;
  /** Tasks run at once on this worker. Default 1. */
  readonly concurrency?: number | undefined;
  /** `--id`; default the id kept in `$SNODO_HOME/worker-id`. */
  readonly workerId?: string | undefined;
  /** How long a job's lock lasts without renewal before another worker may take it over. Default 30 s. */
  readonly lockDurationMs?: number | undefined;
  /** How often stalled jobs (a dead worker's) are looked for. Default 30 s. */
  readonly stalledIntervalMs?: number | undefined;
  /** The most landing jobs one merge train lands together (`queue.landing_batch`). Default 8; 1 lands one by one. */
  readonly landingBatch?: number | undefined;
  /** Builds the log once the worker id is known. */
  readonly log: (workerId: string) => WorkerLog;
}

/** A started worker. */
export interface RunningWorker {
  readonly workerId: string;
  /**
   * Stops taking jobs and waits for the running ones to finish (BullMQ's close); a job it cannot finish
   * (the process dies) is handed back by stall detection.
   */
  close(): Promise<void>;
}

/**
 * Starts a worker in `clone`: registers its signing key in the repository on first start, then takes task
 * jobs (`concurrency` at once) and landing jobs (one at a time here, one at a time globally), and listens
 * for cancellations of the jobs it runs.
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const remote = options.remote ?? 'origin';
  // Core's check: a configured remote's name, never a URL or something that reads as a flag.
  await requireRemote(options.clone, remote);
  const landingBatch = options.landingBatch ?? DEFAULT_LANDING_BATCH;
  if (!Number.isInteger(landingBatch) || landingBatch < 1 || landingBatch > 100) {
    throw new WorkerSetupError({
      problem: `queue.landing_batch is ${landingBatch}`,
      fix: 'Give a whole number from 1 (land one by one) to 100: snodo config set queue.landing_batch 8.',
    });
  }
  const workerId = resolveWorkerId(options.snodoHome, options.workerId);
  const log = options.log(workerId);
  await registerWorkerKey({ clone: options.clone, remote, workerId, snodoHome: options.snodoHome });
  const { connection } = options;
  const landings = connection.createQueue<LandingJobData, LandingJobResult>(LANDING_QUEUE);
  await landings.setGlobalConcurrency(1);
  const context: WorkerContext = {
    clone: options.clone,
    remote,
    workerId,
    snodoHome: options.snodoHome,
    env: options.env,
    homeDirectory: options.homeDirectory,
    coders: options.coders,
    cloneLock: new CloneLock(),
    log,
    landings,
    landingBatch,
  };
  const timing = {
    ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
    ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
  };
  const tasks = connection.createWorker<TaskJobData, TaskJobResult>(
    TASK_QUEUE,
    (job: Job<TaskJobData, TaskJobResult>, _token, signal) => runQueuedTask(context, job, signal),
    { concurrency: options.concurrency ?? 1, ...timing },
  );
  const landers = connection.createWorker<LandingJobData, LandingJobResult>(
    LANDING_QUEUE,
    (job: Job<LandingJobData, LandingJobResult>, _token, signal) => landQueuedTask(context, job, signal),
    { concurrency: 1, ...timing },
  );
  for (const worker of [tasks, landers]) {
    worker.on('failed', (job, error) => log(job?.id, `failed: ${error.message}`));
    worker.on('error', (error) => log(undefined, `queue error: ${error.message}`));
  }
  const events = connection.createQueueEvents(TASK_QUEUE);
  // BullMQ's cancellation aborts a job's signal only in the process that runs it; `snodo job cancel` on any
  // machine publishes this event, and the worker holding the job aborts it (the run stops its coder group).
  (events as unknown as NodeJS.EventEmitter).on(CANCEL_EVENT, (event: { jobId?: string; by?: string }) => {
    if (event.jobId !== undefined && tasks.cancelJob(event.jobId, `cancelled by ${event.by ?? 'a user'}`)) {
      log(event.jobId, `cancelling (asked by ${event.by ?? 'a user'})`);
    }
  });
  await Promise.all([tasks.waitUntilReady(), landers.waitUntilReady(), events.waitUntilReady()]);
  log(
    undefined,
    `ready: ${options.concurrency ?? 1} slot(s) in ${options.clone}, queue ${connection.displayUrl}`,
  );
  let closing: Promise<void> | undefined;
  return {
    workerId,
    close() {
      closing ??= (async () => {
        log(undefined, 'stopping: taking no new jobs, finishing the running ones');
        await Promise.all([tasks.close(), landers.close()]);
        await Promise.all([events.close(), landings.close()]);
        log(undefined, 'stopped');
      })();
      return closing;
    },
  };
}
