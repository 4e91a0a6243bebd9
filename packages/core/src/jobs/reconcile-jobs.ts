import { hostname } from 'node:os';
import { killTaggedProcesses } from '@snodo/coder-sdk/utils';
import { isSameProcessAlive } from '@snodo/foundation';
import type { JobState } from './job-state.js';
import { listJobs, updateJobState } from './job-store.js';
import { isLeftRunningByDeadProcess } from './left-running.js';

/**
 * Stops the coder of a job whose snodo process died (the coder runs in its own process group, so it does
 * not die with snodo). Only when the recorded pid is still the same process (start time checked), so a
 * recycled pid is never signalled. Returns the group stopped, if any.
 */
function stopOrphanedCoder(job: JobState): number | undefined {
  const coder = job.coderProcess;
  if (!coder) return undefined;
  // A descendant that left the group (`setsid`) still carries the supervisor's tag in its environment.
  const tagged = coder.tag === undefined ? 0 : killTaggedProcesses(coder.tag);
  if (!isSameProcessAlive(coder.pid, coder.startTimeMs)) return tagged > 0 ? coder.processGroup : undefined;
  try {
    process.kill(-coder.processGroup, 'SIGKILL');
    return coder.processGroup;
  } catch {
    return tagged > 0 ? coder.processGroup : undefined;
  }
}

/**
 * Finds jobs left `running` by a process that is gone (a crash, a kill, a closed terminal) and marks them
 * `interrupted`. Their branch and worktree stay as they were for inspection; nothing half-merged can exist
 * because the base only ever moves by one compare-and-swap. Jobs of other hosts sharing the directory are
 * left alone: their liveness cannot be checked from here.
 */
export async function reconcileInterruptedJobs(
  repositoryRoot: string,
  /** The jobs to look at: every job by default; a run's start gives those its index names. */
  jobs: readonly JobState[] = listJobs(repositoryRoot),
): Promise<JobState[]> {
  const host = hostname();
  const interrupted: JobState[] = [];
  for (const job of jobs) {
    if (!isLeftRunningByDeadProcess(job, host)) continue;
    const coderStopped = stopOrphanedCoder(job);
    const updated = await updateJobState(repositoryRoot, job.jobId, (state) => {
      if (state.status !== 'running') return state;
      const endedAt = new Date().toISOString();
      return {
        ...state,
        status: 'interrupted',
        outcome: 'interrupted',
        endedAt,
        summary:
          `The process running this job (pid ${state.process.pid}) ended before the job did` +
          (coderStopped
            ? `; its coder (process group ${coderStopped}) was still running and was stopped.`
            : '.'),
      };
    });
    if (updated.status === 'interrupted') interrupted.push(updated);
  }
  return interrupted;
}
