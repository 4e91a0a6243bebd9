import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunFlags } from '../commands/run/run-action.js';

/** The run flags a background run takes: those of `snodo run`, without the ones about this terminal. */
export type BackgroundRunFlags = Omit<RunFlags, 'dryRun' | 'json' | 'background'>;

/**
 * What the detached process runs (`background.json` in the job's directory): written by the process that
 * starts it, so neither the task (up to 256 KiB, more than one argv entry may hold) nor the flags travel on
 * a command line `ps` shows.
 */
export interface BackgroundRequest {
  readonly version: 1;
  readonly jobId: string;
  /** The task as the plan masked it (known secrets replaced). */
  readonly task: string;
  readonly cwd: string;
  readonly flags: BackgroundRunFlags;
  /** Who started it, for the audit log. */
  readonly actor?: string | undefined;
}

/** The request file of a job directory. */
export function backgroundRequestPath(jobDirectory: string): string {
  return join(jobDirectory, 'background.json');
}

/** The combined stdout and stderr of the detached process. */
export function backgroundLogPath(jobDirectory: string): string {
  return join(jobDirectory, 'output.log');
}

/** Reads a job directory's request; throws when it is missing or not one. */
export function readBackgroundRequest(jobDirectory: string): BackgroundRequest {
  const path = backgroundRequestPath(jobDirectory);
  const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<BackgroundRequest>;
  if (value.version !== 1 || typeof value.task !== 'string' || typeof value.jobId !== 'string') {
    throw new Error(`${path} is not a background run request.`);
  }
  return value as BackgroundRequest;
}
