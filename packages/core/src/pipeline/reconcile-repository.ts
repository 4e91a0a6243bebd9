import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import type { AuditTrail } from '../audit-trail/index.js';
import { listPossiblyRunningJobs, reconcileInterruptedJobs, updateJobState } from '../jobs/index.js';
import { type LandingMove, type RecoveredLanding, recoverInterruptedLandings } from '../landing/index.js';
import type { RunContext } from './run-context.js';

/** A recovered landing as its jobs' records: each did land, although its process died on the way. */
async function recordRecoveredLanding(
  context: RunContext,
  landing: RecoveredLanding,
  car: LandingMove,
): Promise<void> {
  if (landing.action !== 'finished') return;
  await updateJobState(context.repositoryRoot, car.jobId, (state) => {
    if (state.status !== 'running' && state.status !== 'interrupted') return state;
    return {
      ...state,
      status: 'done',
      outcome: 'merged',
      endedAt: state.endedAt ?? new Date().toISOString(),
      summary: landing.message,
      landing: {
        strategy: state.landing?.strategy ?? 'merge',
        outcome: 'merged',
        mergeCommit: car.to,
        previousBaseCommit: car.from,
      },
    };
  }).catch(() => undefined);
}

/**
 * What every start does before its own job: finish landings whose process died after moving the base (the
 * user's checkout is brought to the landed commit, or the reason it could not be is returned), then mark
 * jobs left `running` by a dead process `interrupted` (among those the running-jobs index names) and stop
 * what they left running. Each is audited.
 * Returns the landings found, for the caller to report.
 */
export async function reconcileRepository(
  context: RunContext,
  auditTrail: AuditTrail,
): Promise<RecoveredLanding[]> {
  const landings = await recoverInterruptedLandings(context.repositoryRoot);
  for (const landing of landings) {
    // A train's journal covers several jobs: each gets its own record and event, with its own commit.
    for (const car of landing.cars) {
      await recordRecoveredLanding(context, landing, car);
      await appendAuditEvent(
        auditTrail,
        'landing-recover',
        {
          action: landing.action,
          base_ref: landing.baseRef,
          previous_base_commit: car.from,
          merge_commit: car.to,
          updated_checkouts: [...landing.updatedCheckouts],
        },
        { job: car.jobId },
      );
    }
  }
  // Only the jobs the running-jobs index names: reading every job's state made start-up grow with history.
  const possiblyRunning = await listPossiblyRunningJobs(context.repositoryRoot);
  for (const interrupted of await reconcileInterruptedJobs(context.repositoryRoot, possiblyRunning)) {
    await appendAuditEvent(
      auditTrail,
      'job-interrupt',
      { pid: interrupted.process.pid, previous_status: 'running' },
      { job: interrupted.jobId },
    );
  }
  return landings;
}
