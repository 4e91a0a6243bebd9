import { existsSync, readdirSync } from 'node:fs';
import { findMainCheckout, jobPaths, jobsDirectory } from '@snodo/core/jobs';
import type { CliContext } from '../../cli-context.js';
import { readQueueSettings } from './queue-settings.js';

/**
 * Whether `snodo task approve|reject` or `snodo job cancel` means a job of the shared queue: this machine's
 * config has `queue.url` and the reference names no job of this repository (not `last`, no job with that id
 * or beginning). Local jobs always win, so a machine without a queue behaves as before.
 */
export async function isQueueJobReference(context: CliContext, reference: string): Promise<boolean> {
  if (reference === 'last' || readQueueSettings(context).queue.url === undefined) return false;
  let root: string;
  try {
    ({ root } = await findMainCheckout(context.cwd));
  } catch {
    return true;
  }
  if (existsSync(jobPaths(root, reference).state)) return false;
  const directory = jobsDirectory(root);
  return !(existsSync(directory) && readdirSync(directory).some((name) => name.startsWith(reference)));
}
