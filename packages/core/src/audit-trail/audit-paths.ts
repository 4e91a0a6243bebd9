import { join } from 'node:path';
import { projectDirectoryName } from '../isolation/project-directory-name.js';

/** The audit log of a repository's main checkout. */
export function auditLogPath(repositoryRoot: string): string {
  return join(repositoryRoot, '.snodo', 'audit.log');
}

/**
 * Where `snodo audit reset` keeps a log it replaced: beside the current one, never deleted, and covered by
 * the runtime exclusions (`/.snodo/audit.*.log`).
 */
export function archivedAuditLogPath(repositoryRoot: string, logId: string): string {
  return join(repositoryRoot, '.snodo', `audit.${logId}.log`);
}

/** Where snodo keeps its signing key: in `$SNODO_HOME`, never in a repository or a coder's environment. */
export function signingKeyDirectory(snodoHome: string): string {
  return join(snodoHome, 'keys');
}

/**
 * One repository's checkpoint stores, `$SNODO_HOME/checkpoints/<project>/`, named like its worktrees
 * folder (readable slug + hash of the git common directory). Listing it tells which log ids this
 * repository ever had on this machine, which is what lets a replaced log be told from a new one.
 */
export function checkpointStoreDirectory(snodoHome: string, gitCommonDirectory: string): string {
  return join(snodoHome, 'checkpoints', projectDirectoryName(gitCommonDirectory));
}

/** The checkpoint store of one log of one repository: a copy of every signed checkpoint outside it. */
export function repositoryCheckpointStorePath(
  snodoHome: string,
  gitCommonDirectory: string,
  logId: string,
): string {
  return join(checkpointStoreDirectory(snodoHome, gitCommonDirectory), `${logId}.jsonl`);
}

/**
 * The checkpoint store of one log as snodo 0.x wrote it, by log id only (`$SNODO_HOME/checkpoints/<id>.jsonl`).
 * Still read for the current log, never written: a file there cannot be attributed to a repository.
 */
export function checkpointStorePath(snodoHome: string, logId: string): string {
  return join(snodoHome, 'checkpoints', `${logId}.jsonl`);
}

/** The ref holding a chain of commits, one per checkpoint, so git history witnesses the log too. */
export const AUDIT_CHECKPOINT_REF = 'refs/snodo/audit';

/** Where `snodo audit verify` fetches a remote's `refs/snodo/audit` (`audit.remote`). */
export function remoteAuditRef(remote: string): string {
  return `refs/snodo/remotes/${remote}/audit`;
}

/** Refs under this prefix are snodo's copies of remote anchors; the tamper guard leaves them out. */
export const REMOTE_AUDIT_REF_PREFIX = 'refs/snodo/remotes/';
