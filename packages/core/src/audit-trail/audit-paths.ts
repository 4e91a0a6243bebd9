import { join } from 'node:path';

/** The audit log of a repository's main checkout. */
export function auditLogPath(repositoryRoot: string): string {
  return join(repositoryRoot, '.snodo', 'audit.log');
}

/** Where snodo keeps its signing key: in `$SNODO_HOME`, never in a repository or a coder's environment. */
export function signingKeyDirectory(snodoHome: string): string {
  return join(snodoHome, 'keys');
}

/** The checkpoint store of one log, by log id: a copy of every signed checkpoint outside the repository. */
export function checkpointStorePath(snodoHome: string, logId: string): string {
  return join(snodoHome, 'checkpoints', `${logId}.jsonl`);
}

/** The ref holding a chain of commits, one per checkpoint, so git history witnesses the log too. */
export const AUDIT_CHECKPOINT_REF = 'refs/snodo/audit';
