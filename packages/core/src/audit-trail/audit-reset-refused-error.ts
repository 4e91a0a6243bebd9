import { SnodoError } from '@snodo/coder-sdk';

const name = 'AuditResetRefusedError';
const marker = 'snodo.error.AUDIT_RESET_REFUSED';
const symbol = Symbol.for(marker);

/** `snodo audit reset` cannot do what was asked (no reason given, or nothing to reset): bad input, exit 2. */
export class AuditResetRefusedError extends SnodoError {
  private readonly [symbol] = true;

  constructor(options: { reason: string; fix: string }) {
    super('AUDIT_RESET_REFUSED', { message: `snodo audit reset refused: ${options.reason}. ${options.fix}` });
    this.name = name;
  }

  static override isInstance(value: unknown): value is AuditResetRefusedError {
    return SnodoError.hasMarker(value, marker);
  }
}
