import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import type { AuditEventData } from '../audit-trail/audit-event-vocabulary.js';
import type { JobState } from '../jobs/index.js';
import { updateJobState } from '../jobs/index.js';
import { openScopeAuditTrail } from './open-scope-audit-trail.js';
import type { TaskScope } from './task-scope.js';

/**
 * Audits a human decision on a job and applies it to `state.json`, with a fresh signed checkpoint, for the
 * actions that end a job without running the pipeline again (reject, abandon).
 */
export async function recordJobDecision<T extends 'job-reject' | 'job-abandon'>(
  scope: TaskScope,
  options: {
    jobId: string;
    type: T;
    data: AuditEventData<T>;
    mutate: (state: JobState) => JobState;
  },
): Promise<JobState> {
  const trail = await openScopeAuditTrail(scope);
  try {
    await appendAuditEvent(trail, options.type, options.data, { job: options.jobId, actor: scope.actor });
    await updateJobState(scope.repositoryRoot, options.jobId, options.mutate);
    await trail.sync();
    const { trailer } = await trail.checkpoint();
    return await updateJobState(scope.repositoryRoot, options.jobId, (current) => ({
      ...current,
      checkpoint: trailer,
    }));
  } finally {
    await trail.close();
  }
}
