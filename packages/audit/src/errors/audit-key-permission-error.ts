import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.AUDIT_KEY_PERMISSIONS';

/**
 * The signing key file is readable by the group or by others (or owned by another user). A checkpoint
 * signature is worth only as much as the key's secrecy, so snodo refuses to use it until it is private.
 */
export class AuditKeyPermissionError extends SnodoError<'AUDIT_KEY_PERMISSIONS'> {
  /** The key file. */
  readonly path: string;
  /** The file's permission bits (`0o644`). */
  readonly mode: number;

  constructor(options: { path: string; mode: number; problem?: string }) {
    const mode = `0${(options.mode & 0o777).toString(8)}`;
    const problem = options.problem ?? `is readable by group or others (mode ${mode})`;
    super('AUDIT_KEY_PERMISSIONS', {
      message:
        `The audit signing key ${options.path} ${problem}. A signing key must be private to its owner: ` +
        `run \`chmod 600 ${options.path}\` and try again.`,
    });
    this.name = 'AuditKeyPermissionError';
    SnodoError.mark(this, marker);
    this.path = options.path;
    this.mode = options.mode & 0o777;
  }

  static override isInstance(value: unknown): value is AuditKeyPermissionError {
    return SnodoError.hasMarker(value, marker);
  }
}
