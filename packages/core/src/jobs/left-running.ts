import { hostname } from 'node:os';
import { isSameProcessAlive } from '@snodo/foundation';
import type { JobState } from './job-state.js';

/**
 * Whether `job` says `running` but the snodo process that ran it is gone (a crash, a kill, a closed
 * terminal): what reconciliation marks `interrupted`. Jobs of other hosts sharing the directory never are —
 * their liveness cannot be checked from here — nor is a job of this very process.
 */
export function isLeftRunningByDeadProcess(job: JobState, host: string = hostname()): boolean {
  if (job.status !== 'running' || job.process.hostname !== host) return false;
  if (job.process.pid === process.pid) return false;
  return !isSameProcessAlive(job.process.pid, job.process.startTimeMs);
}
