import { userInfo } from 'node:os';
import { ConfigStore, type SnodoConfig } from '@snodo/core/config';
import { resolveSnodoHome } from '@snodo/core/paths';
import type { QueueConnection } from '@snodo/queue';
import type { CliContext } from '../../cli-context.js';

/** This machine's queue settings (`queue.*` in `$SNODO_HOME/config.yml`) and where they were read. */
export interface QueueSettings {
  readonly snodoHome: string;
  readonly queue: NonNullable<SnodoConfig['queue']>;
}

/** Reads `queue.*` from config; never from the protocol (a repository must not point workers at a server). */
export function readQueueSettings(context: CliContext): QueueSettings {
  const snodoHome = resolveSnodoHome({ env: context.env, homedir: context.homeDirectory });
  const { config } = new ConfigStore({ home: snodoHome }).load();
  return { snodoHome, queue: config.queue ?? {} };
}

/** The queue connection of `queue.url`, or `QUEUE_URL_MISSING` naming the key and the command that sets it. */
export async function requireQueueConnection(
  context: CliContext,
  command: string,
): Promise<{ settings: QueueSettings; connection: QueueConnection }> {
  const settings = readQueueSettings(context);
  const { openQueueConnection, QueueUrlMissingError } = await import('@snodo/queue');
  if (settings.queue.url === undefined) throw new QueueUrlMissingError({ command });
  return { settings, connection: openQueueConnection(settings.queue.url) };
}

/** Who is acting, for shared state and the audit log. */
export function actorName(context: CliContext): string {
  try {
    return context.env.USER ?? userInfo().username;
  } catch {
    return 'unknown';
  }
}
