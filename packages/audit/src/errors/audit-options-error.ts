import { AuditError } from './audit-error.js';

const name = 'AuditOptionsError';
const marker = 'snodo.error.AUDIT_OPTIONS_INVALID';
const symbol = Symbol.for(marker);

/**
 * A caller passed options the audit package cannot work with: creating a log without the repository's
 * identity, registering a secret too short to mask safely, exporting an attestation without a subject.
 * A programming error in the caller, never caused by the log's contents.
 */
export class AuditOptionsError extends AuditError {
  private readonly [symbol] = true;

  /** The option at fault (`repository`, `secrets[2]`, `subject`). */
  readonly option: string;

  constructor(options: { option: string; problem: string; fix: string }) {
    super('AUDIT_OPTIONS_INVALID', {
      message: `Invalid audit option ${options.option}: ${options.problem}. ${options.fix}`,
    });
    this.name = name;
    this.option = options.option;
  }

  static override isInstance(value: unknown): value is AuditOptionsError {
    return AuditError.hasMarker(value, marker);
  }
}
