import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type JobState, jobPaths } from '@snodo/core/jobs';
import { isSameProcessAlive } from '@snodo/foundation';
import { backgroundLogPath } from './background-request.js';

/** How long to wait for a background run's process to exit after its job ended. */
const EXIT_WAIT_MS = 30_000;
const POLL_INTERVAL_MS = 100;

/**
 * Waits until the process of an ended background job has exited: it writes `state.json`'s final status
 * first and then the job's `job-end` event, its signed checkpoint and its last output lines, so a caller that
 * reads the log or the audit trail afterwards sees them. Returns at once for a job that is not a background
 * run (its process may be a terminal's `snodo run`, or a server that runs many jobs). `onTick` runs on every
 * poll (`logs --follow` copies new output there).
 */
export async function waitForBackgroundExit(
  repositoryRoot: string,
  state: JobState,
  onTick: () => void = () => {},
): Promise<void> {
  if (!existsSync(backgroundLogPath(jobPaths(repositoryRoot, state.jobId).directory))) return;
  const deadline = Date.now() + EXIT_WAIT_MS;
  while (isSameProcessAlive(state.process.pid, state.process.startTimeMs) && Date.now() < deadline) {
    onTick();
    await sleep(POLL_INTERVAL_MS);
  }
}
