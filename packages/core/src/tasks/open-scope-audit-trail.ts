import { AuditTrail } from '../audit-trail/index.js';
import type { TaskScope } from './task-scope.js';

/**
 * The repository's audit trail, opened as the task command's actor: how every human action on a job
 * (`snodo task …`, `snodo job cancel`, a queue decision, dead-job reconciliation) appends to the log. The
 * caller closes it.
 */
export function openScopeAuditTrail(scope: TaskScope): Promise<AuditTrail> {
  return AuditTrail.open({
    repositoryRoot: scope.repositoryRoot,
    gitCommonDirectory: scope.gitCommonDirectory,
    snodoHome: scope.snodoHome,
    actor: scope.actor,
    createdBy: 'snodo',
    remote: scope.config.audit?.remote,
  });
}
