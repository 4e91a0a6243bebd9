import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import { JobActionRefusedError } from '../errors.js';
import { isLeftRunningByDeadProcess, type JobState, jobPaths, readJobState } from '../jobs/index.js';
import { writeCancelRequest } from '../pipeline/cancel-request.js';
import { openScopeAuditTrail } from './open-scope-audit-trail.js';
import { reconcileDeadJobs } from './reconcile-dead-jobs.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

/** What `cancelJob` is given. */
export interface CancelJobOptions extends TaskCommandOptions {
  readonly jobId: string;
  /** Why, for the audit log and `state.json`. */
  readonly reason?: string | undefined;
  /** How long to wait for the job to stop, in milliseconds; `0` only asks. Default 60 s. */
  readonly waitMs?: number | undefined;
}

/** How a cancellation went. */
export interface CancelJobResult {
  /** The job's state when `cancelJob` returned. */
  readonly state: JobState;
  /** `true` once the job is no longer running (cancelled, or it ended some other way first). */
  readonly stopped: boolean;
}

const DEFAULT_WAIT_MS = 60_000;
const POLL_INTERVAL_MS = 100;

/** What to type instead, for a job that has nothing left to stop. */
function hintFor(state: JobState): string {
  switch (state.status) {
    case 'halted':
      return `It waits for a decision: \`snodo task reject ${state.jobId} --reason "…"\` closes it.`;
    case 'done':
    case 'failed':
    case 'cancelled':
    case 'interrupted':
      return `Nothing runs any more; \`snodo task abandon ${state.jobId}\` removes what it kept.`;
    default:
      return `See \`snodo task show ${state.jobId}\`.`;
  }
}

/**
 * Asks a running job to stop (`snodo job cancel`, the MCP server, a queue worker): the request is audited
 * (`job-cancel`, by whom and when) and left in the job's directory, where the process running the job sees
 * it within a fraction of a second and stops as on Ctrl-C — its supervisor kills the coder's process group,
 * and the job ends `cancelled` with the canceller in its summary and decisions. Waits up to `waitMs` for
 * that. A job that is not running (ended, or its process died: then it is reconciled `interrupted` first)
 * is refused with `JOB_ACTION_REFUSED`; so is a job another host runs.
 */
export async function cancelJob(options: CancelJobOptions): Promise<CancelJobResult> {
  const scope = await openTaskScope(options);
  await reconcileDeadJobs(options);
  const state = readJobState(scope.repositoryRoot, options.jobId);
  if (state.status !== 'running') {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'cancel',
      reason: `it is not running (it is ${state.status}${state.outcome ? `, ${state.outcome}` : ''})`,
      hint: hintFor(state),
    });
  }
  if (state.process.hostname !== hostname()) {
    throw new JobActionRefusedError({
      jobId: options.jobId,
      action: 'cancel',
      reason: `it runs on ${state.process.hostname}, not on this machine`,
      hint: `Run \`snodo job cancel ${options.jobId}\` there.`,
    });
  }
  const at = new Date().toISOString();
  const trail = await openScopeAuditTrail(scope);
  try {
    // Audited before the request exists, so the log has the request before the job's own `job-end`.
    await appendAuditEvent(
      trail,
      'job-cancel',
      { by: scope.actor, at, reason: options.reason, pid: state.process.pid },
      { job: options.jobId, actor: scope.actor },
    );
    await trail.sync();
  } finally {
    await trail.close();
  }
  writeCancelRequest(jobPaths(scope.repositoryRoot, options.jobId).directory, {
    by: scope.actor,
    at,
    ...(options.reason === undefined ? {} : { reason: options.reason }),
  });
  return waitForStop(options, scope.repositoryRoot, options.waitMs ?? DEFAULT_WAIT_MS);
}

async function waitForStop(
  options: CancelJobOptions,
  repositoryRoot: string,
  waitMs: number,
): Promise<CancelJobResult> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const state = readJobState(repositoryRoot, options.jobId);
    if (state.status !== 'running') return { state, stopped: true };
    if (Date.now() >= deadline) return { state, stopped: false };
    // A process that died instead of finishing leaves the job `running`: reconciling says `interrupted`.
    if (isLeftRunningByDeadProcess(state)) await reconcileDeadJobs(options);
    else await sleep(POLL_INTERVAL_MS);
  }
}
