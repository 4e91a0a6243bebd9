// Where the shared remote keeps the multi-worker audit history, and where a clone keeps its copies of it.
// Local copies live under `refs/snodo/remotes/`, which the repository guard leaves out: fetching another
// worker's chain during a job is not tampering.

/** One worker's chain on the shared remote: a commit per landing snapshot, each holding its `audit.log`. */
export const WORKER_AUDIT_REF_PREFIX = 'refs/snodo/audit/';

/**
 * The registered worker keys on the shared remote: a commit chain whose tree holds `<worker>.pub` (SPKI
 * PEM), only ever added to.
 */
export const WORKER_KEYS_REF = 'refs/snodo/keys';

/** Where a worker's task commit waits for its landing (`snodo worker` pushes it there). */
export function jobResultRef(jobId: string): string {
  return `refs/snodo/jobs/${jobId}`;
}

/** `refs/snodo/audit/<worker>` on the remote. */
export function workerAuditRef(workerId: string): string {
  return `${WORKER_AUDIT_REF_PREFIX}${workerId}`;
}

/** The lander's working copies of what it fetched from `remote` (pruned and refreshed at every attempt). */
export function landingCopyPrefix(remote: string): string {
  return `refs/snodo/remotes/${remote}/landing/`;
}

/**
 * The copies `snodo audit verify --remote` last accepted: a chain or key registry fetched later must
 * contain them, or it was rewritten.
 */
export function verifiedCopyPrefix(remote: string): string {
  return `refs/snodo/remotes/${remote}/verified/`;
}

/** Where `snodo audit verify --remote` fetches into before comparing with the verified copies. */
export function incomingCopyPrefix(remote: string): string {
  return `refs/snodo/remotes/${remote}/incoming/`;
}

/** Worker ids, job ids and branch names snodo puts into ref names: one path component, no flag. */
const refComponent = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Why `name` cannot be one component of a ref name, or `undefined` when it can. */
export function refComponentProblem(name: string): string | undefined {
  if (!refComponent.test(name)) {
    return 'use letters, digits, `.`, `_` and `-` only, starting with a letter or digit (at most 100)';
  }
  if (name.includes('..') || name.endsWith('.lock') || name.endsWith('.')) {
    return 'it may not contain `..` or end with `.` or `.lock`';
  }
  return undefined;
}

/** Why `branch` (a short name or `refs/heads/<name>`) cannot be the base, or its short name. */
export function baseBranchName(branch: string): { name: string } | { problem: string } {
  const name = branch.startsWith('refs/heads/') ? branch.slice('refs/heads/'.length) : branch;
  const parts = name.split('/');
  for (const part of parts) {
    const problem = refComponentProblem(part);
    if (problem !== undefined) return { problem };
  }
  return { name };
}
