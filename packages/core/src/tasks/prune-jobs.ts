import { isSameProcessAlive } from '@snodo/foundation';
import { listJobs } from '../jobs/index.js';
import { abandonJob } from './abandon-job.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

/** What `snodo task prune` did (or would do) with one kept job. */
export interface PruneJobResult {
  readonly jobId: string;
  readonly action: 'removed' | 'would-remove' | 'skipped';
  readonly reason?: 'running' | 'too-recent' | 'dirty' | 'nothing-kept';
  readonly message?: string;
}

/**
 * Discards kept jobs (halted, failed, cancelled, interrupted, rejected) older than `olderThanMs`, as
 * `abandonJob` would, one by one: a job whose worktree has uncommitted changes is skipped unless `force`.
 * `dryRun` lists what would go and changes nothing.
 */
export async function pruneJobs(
  options: TaskCommandOptions & { olderThanMs?: number; force?: boolean; dryRun?: boolean; now?: number },
): Promise<PruneJobResult[]> {
  const scope = await openTaskScope(options);
  const now = options.now ?? Date.now();
  const results: PruneJobResult[] = [];
  for (const job of listJobs(scope.repositoryRoot)) {
    if (job.status === 'done' || job.status === 'abandoned') continue;
    if (job.isolation === undefined || job.isolation.mode === 'none') {
      results.push({ jobId: job.jobId, action: 'skipped', reason: 'nothing-kept' });
      continue;
    }
    if (job.status === 'running' && isSameProcessAlive(job.process.pid, job.process.startTimeMs)) {
      results.push({ jobId: job.jobId, action: 'skipped', reason: 'running' });
      continue;
    }
    const age = now - Date.parse(job.endedAt ?? job.updatedAt);
    if (options.olderThanMs !== undefined && age < options.olderThanMs) {
      results.push({ jobId: job.jobId, action: 'skipped', reason: 'too-recent' });
      continue;
    }
    if (options.dryRun) {
      results.push({ jobId: job.jobId, action: 'would-remove' });
      continue;
    }
    try {
      await abandonJob({ ...options, jobId: job.jobId, force: options.force === true });
      results.push({ jobId: job.jobId, action: 'removed' });
    } catch (error) {
      results.push({
        jobId: job.jobId,
        action: 'skipped',
        reason: 'dirty',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return results;
}
