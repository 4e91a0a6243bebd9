import { checkAuditAnchors, snapshotAuditAnchors } from '../audit-trail/index.js';
import {
  type GuardedPath,
  type GuardScope,
  type GuardSnapshotTaker,
  guardedPaths,
  RepositoryGuard,
} from '../guard/index.js';
import type { JobRun } from './job-run.js';

/**
 * The repository guard of one step of a job (SPEC §12, second line): snapshot now, `verify` right after the
 * step, before snodo runs git in the user's repository again.
 */
export function takeJobGuard(run: JobRun): Promise<RepositoryGuard> {
  const { context } = run;
  // The audit trail's part: the log only grew by valid events (other jobs append meanwhile), the checkpoint
  // store only by signed checkpoints, refs/snodo/* only by verifying checkpoint commits.
  const auditTrail: GuardSnapshotTaker = async (scope) => {
    const snapshot = await snapshotAuditAnchors({ ...scope, logId: run.auditTrail.logId });
    return {
      async check() {
        const checked = await checkAuditAnchors(snapshot);
        return {
          findings: checked.findings.map(({ what, change, subject }) => ({ what, change, path: subject })),
          restore: checked.restore,
        };
      },
    };
  };
  const scope: GuardScope = {
    repositoryRoot: context.repositoryRoot,
    gitCommonDirectory: context.gitCommonDirectory,
    snodoHome: context.snodoHome,
    homeDirectory: context.homeDirectory,
    env: context.env,
  };
  let paths = pathsOfJob.get(run);
  if (paths === undefined) {
    paths = guardedPaths(scope);
    pathsOfJob.set(run, paths);
  }
  return RepositoryGuard.take(scope, [auditTrail], paths);
}

/** What a job's guard watches, found once per job: the list does not change between its steps. */
const pathsOfJob = new WeakMap<JobRun, Promise<readonly GuardedPath[]>>();
