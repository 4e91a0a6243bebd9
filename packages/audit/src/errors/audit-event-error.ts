import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.AUDIT_EVENT_INVALID';

/**
 * An event given to `append` cannot be logged as it is: a float or unsafe integer in `data` (events carry
 * integers and strings only, so their hash never depends on number formatting), a type name that is not
 * kebab-case, a value JSON cannot carry, or a line over the size cap. Nothing was written.
 */
export class AuditEventError extends SnodoError<'AUDIT_EVENT_INVALID'> {
  /** Where in the event the problem is, as a path (`data.usage.costUsd`), or `event` for the whole. */
  readonly field: string;
  /** What is wrong with it, without the field name (`holds the number 1.5; …`). */
  readonly problem: string;

  constructor(options: { field: string; problem: string; fix: string }) {
    super('AUDIT_EVENT_INVALID', {
      message: `The audit event cannot be logged: ${options.field} ${options.problem}. ${options.fix}`,
    });
    this.name = 'AuditEventError';
    SnodoError.mark(this, marker);
    this.field = options.field;
    this.problem = options.problem;
  }

  static override isInstance(value: unknown): value is AuditEventError {
    return SnodoError.hasMarker(value, marker);
  }
}
