import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import { type JobState, reconcileInterruptedJobs } from '../jobs/index.js';
import { openScopeAuditTrail } from './open-scope-audit-trail.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

/**
 * Marks jobs whose snodo process died (a crash, a kill, a closed terminal or pipe) `interrupted`, stops
 * the coder they left running, and audits each (`job-interrupt`), as every `snodo run` does at start: so
 * `snodo task list`, `task show` and `logs` never show a dead job as `running`. Opens the audit log only
 * when there is something to record. Returns the jobs it reconciled.
 */
export async function reconcileDeadJobs(options: TaskCommandOptions): Promise<JobState[]> {
  const scope = await openTaskScope(options);
  const interrupted = await reconcileInterruptedJobs(scope.repositoryRoot);
  if (interrupted.length === 0) return interrupted;
  const trail = await openScopeAuditTrail(scope);
  try {
    for (const job of interrupted) {
      await appendAuditEvent(
        trail,
        'job-interrupt',
        { pid: job.process.pid, previous_status: 'running' },
        { job: job.jobId },
      );
    }
    await trail.sync();
    await trail.checkpoint();
  } finally {
    await trail.close();
  }
  return interrupted;
}
