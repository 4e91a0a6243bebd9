import type { SnodoConfig } from '@snodo/core/config';
import type { DoctorCheck } from './doctor-check.js';

/**
 * The queue line of `snodo doctor`, only when `queue.url` is set: whether its server answers (and how many
 * jobs it holds). BullMQ loads only here, so a machine without a queue pays nothing for the check.
 */
export async function checkQueue(config: SnodoConfig): Promise<DoctorCheck | undefined> {
  const url = config.queue?.url;
  if (url === undefined) return undefined;
  const { checkQueueConnection, openQueueConnection } = await import('@snodo/queue');
  let connection: ReturnType<typeof openQueueConnection>;
  try {
    connection = openQueueConnection(url);
  } catch (error) {
    return {
      name: 'queue',
      status: 'fail',
      detail: error instanceof Error ? error.message : String(error),
      fix: 'snodo config set queue.url redis://127.0.0.1:6379',
    };
  }
  const result = await checkQueueConnection(connection);
  return result.ok
    ? { name: 'queue', status: 'ok', detail: `${result.backend} at ${result.url}: ${result.detail}` }
    : {
        name: 'queue',
        status: 'fail',
        detail: `${result.backend} at ${result.url} does not answer: ${result.detail}`,
        fix: 'Start the server, or fix queue.url (snodo config set queue.url …); snodo submit and snodo worker need it.',
      };
}
