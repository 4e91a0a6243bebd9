import type { QueueConnection } from './queue-connection.js';
import { TASK_QUEUE } from './queue-jobs.js';

/** What `snodo doctor` prints about the queue. */
export interface QueueConnectionCheck {
  readonly ok: boolean;
  readonly backend: string;
  readonly url: string;
  /** Job counts when it answered, the reason when it did not. */
  readonly detail: string;
}

/** Connects to the queue and counts its jobs, within `timeoutMs` (default 3 s). */
export async function checkQueueConnection(
  connection: QueueConnection,
  timeoutMs = 3000,
): Promise<QueueConnectionCheck> {
  const queue = connection.createQueue(TASK_QUEUE);
  const base = { backend: connection.kind, url: connection.displayUrl };
  // A server that is down makes ioredis retry forever; the check gives up after the timeout instead.
  queue.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    const counts = await Promise.race([
      queue.waitUntilReady().then(() => queue.getJobCounts('waiting', 'active', 'completed', 'failed')),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    const detail = Object.entries(counts)
      .map(([state, count]) => `${count} ${state}`)
      .join(', ');
    return { ok: true, ...base, detail };
  } catch (error) {
    return { ok: false, ...base, detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    await Promise.race([queue.close(), new Promise((resolve) => setTimeout(resolve, 500))]);
  }
}
