import { AuditError } from './audit-error.js';

const name = 'AuditKeyError';
const marker = 'snodo.error.AUDIT_KEY_INVALID';
const symbol = Symbol.for(marker);

/**
 * A signing or public key cannot be used: the file is missing or unreadable, it is not an ed25519 key,
 * or `createSigningKey` would overwrite an existing key.
 */
export class AuditKeyError extends AuditError {
  private readonly [symbol] = true;

  /** The key file, when the key came from a file. */
  readonly path: string | undefined;

  constructor(options: { path?: string; problem: string; fix: string; cause?: unknown }) {
    const subject = options.path === undefined ? 'The audit key' : `The audit key ${options.path}`;
    super('AUDIT_KEY_INVALID', {
      message: `${subject} cannot be used: ${options.problem}. ${options.fix}`,
      cause: options.cause,
    });
    this.name = name;
    this.path = options.path;
  }

  static override isInstance(value: unknown): value is AuditKeyError {
    return AuditError.hasMarker(value, marker);
  }
}
