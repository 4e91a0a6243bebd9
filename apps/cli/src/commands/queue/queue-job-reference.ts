import { existsSync, readdirSync } from 'node:fs';
import { findMainCheckout, jobPaths, jobsDirectory } from '@snodo/core/jobs';
import type { QueueConnection } from '@snodo/queue';
import type { CliContext } from '../../cli-context.js';
import { readQueueSettings } from './queue-settings.js';

/**
 * The shared queue's connection when `reference` means one of its jobs (`snodo task approve|reject`, `snodo
 * job status|wait|cancel`), else `undefined` and the local command goes on: this machine's config has
 * `queue.url` and the reference names no job of this repository (not `last`, no job with that id or
 * beginning). Local jobs always win, so a machine without a queue behaves as before.
 */
export async function queueJobConnection(
  context: CliContext,
  reference: string,
): Promise<QueueConnection | undefined> {
  const { url } = readQueueSettings(context).queue;
  if (reference === 'last' || url === undefined || (await namesLocalJob(context, reference)))
    return undefined;
  const { openQueueConnection } = await import('@snodo/queue');
  return openQueueConnection(url);
}

async function namesLocalJob(context: CliContext, reference: string): Promise<boolean> {
  let root: string;
  try {
    ({ root } = await findMainCheckout(context.cwd));
  } catch {
    return false;
  }
  if (existsSync(jobPaths(root, reference).state)) return true;
  const directory = jobsDirectory(root);
  return existsSync(directory) && readdirSync(directory).some((name) => name.startsWith(reference));
}
