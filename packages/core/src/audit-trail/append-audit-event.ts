import type { AuditEvent } from '@snodo/audit';
import type { AuditEventData, AuditEventType } from './audit-event-vocabulary.js';
import type { AuditTrail } from './audit-trail.js';

/**
 * Appends one event of core's vocabulary: the type checker holds `data` to the shape its type declares, so
 * the log's format is written in one place (`AuditEventDataByType`).
 */
export function appendAuditEvent<T extends AuditEventType>(
  trail: Pick<AuditTrail, 'append'>,
  type: T,
  data: AuditEventData<T>,
  options: { job?: string; actor?: string } = {},
): Promise<AuditEvent> {
  return trail.append(type, data as Readonly<Record<string, unknown>> as Record<string, unknown>, options);
}
