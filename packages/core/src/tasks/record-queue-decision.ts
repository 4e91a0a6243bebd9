import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import { openScopeAuditTrail } from './open-scope-audit-trail.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

/** A human decision on a job of the shared queue, as the deciding machine records it. */
export interface QueueDecisionRecord {
  readonly jobId: string;
  readonly decision: 'approve' | 'reject';
  readonly reason?: string | undefined;
  /** The worker that ran the job (its chain holds the run itself). */
  readonly workerId: string;
  /** The commit an approval lands. */
  readonly taskCommit?: string | undefined;
  /** Who decided and when, as the queue's shared state holds it; absent: this machine's actor, now. */
  readonly by?: string | undefined;
  readonly at?: string | undefined;
}

/**
 * Appends a `queue-job-decide` event to the audit log of the repository `options.cwd` is in, with a fresh
 * signed checkpoint: a decision on a queue job (`snodo task approve|reject` from any machine) is part of that
 * machine's chain, even though the job ran in a worker's clone. Returns the checkpoint trailer.
 */
export async function recordQueueDecision(
  options: TaskCommandOptions,
  record: QueueDecisionRecord,
): Promise<{ checkpoint: string }> {
  const scope = await openTaskScope(options);
  const trail = await openScopeAuditTrail(scope);
  try {
    await appendAuditEvent(
      trail,
      'queue-job-decide',
      {
        decision: record.decision,
        // The decision's own stamp, so this log and the shared state name the same who and when.
        by: record.by ?? scope.actor,
        at: record.at ?? new Date().toISOString(),
        reason: record.reason,
        worker: record.workerId,
        task_commit: record.taskCommit,
      },
      { job: record.jobId, actor: scope.actor },
    );
    await trail.sync();
    const { trailer } = await trail.checkpoint();
    return { checkpoint: trailer };
  } finally {
    await trail.close();
  }
}
