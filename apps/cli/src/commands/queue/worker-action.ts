import type { CliContext } from '../../cli-context.js';
import { builtInCoders } from '../../coders/built-in-coders.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { requireQueueConnection } from './queue-settings.js';

/** The flags of `snodo worker`. */
export interface WorkerFlags {
  readonly concurrency?: number | undefined;
  readonly id?: string | undefined;
  readonly remote?: string | undefined;
}

/**
 * `snodo worker`: runs until SIGTERM or SIGINT, then stops taking jobs, lets the running ones finish (a job
 * it cannot finish is handed back by stall detection) and exits 0. What it does goes to stdout, a line each.
 */
export async function workerAction(context: CliContext, flags: WorkerFlags): Promise<number> {
  const { settings, connection } = await requireQueueConnection(context, 'snodo worker');
  const { startWorker, streamWorkerLog } = await import('@snodo/queue');
  const seconds = (value: number | undefined) => (value === undefined ? undefined : Math.round(value * 1000));
  const worker = await startWorker({
    connection,
    clone: context.cwd,
    remote: flags.remote,
    snodoHome: settings.snodoHome,
    env: context.env,
    homeDirectory: context.homeDirectory,
    coders: builtInCoders,
    concurrency: flags.concurrency,
    workerId: flags.id,
    lockDurationMs: seconds(settings.queue.lock_seconds),
    stalledIntervalMs: seconds(settings.queue.stalled_interval_seconds),
    landingBatch: settings.queue.landing_batch,
    log: (workerId) => streamWorkerLog(workerId, (text) => context.stdout.write(text)),
  });
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await worker.close();
  return EXIT_CODES.done;
}
