const name = 'AuditError';
const rootMarker = 'snodo.error';
const marker = 'snodo.error.AuditError';
const rootSymbol = Symbol.for(rootMarker);
const symbol = Symbol.for(marker);

/** The options every `@snodo/audit` error takes: one object, so context fields stay named. */
export interface AuditErrorOptions {
  /** What failed, why, and what to type next. */
  readonly message: string;
  /** The underlying error (a Node `fs` error, a crypto error…), kept for logs and `--verbose`. */
  readonly cause?: unknown;
}

/**
 * The root of every `@snodo/audit` error. `code` is stable (`AUDIT_CHAIN_INVALID`): the CLI maps codes to
 * exit codes in one place and scripts may match on them.
 *
 * This package may not import `@snodo/coder-sdk`, so it carries its own root. It sets the shared
 * `Symbol.for('snodo.error')` marker, so `SnodoError.isInstance` from the SDK recognises it too, and its own
 * `Symbol.for('snodo.error.AuditError')` marker for `AuditError.isInstance`. Markers instead of
 * `instanceof` keep the checks true when an application ends up with two copies of the package.
 */
export class AuditError extends Error {
  private readonly [rootSymbol] = true;
  private readonly [symbol] = true;

  /** The stable error code. */
  readonly code: string;

  constructor(code: string, options: AuditErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.code = code;
  }

  /** `true` for any `@snodo/audit` error, from any copy of the package. */
  static isInstance(value: unknown): value is AuditError {
    return AuditError.hasMarker(value, marker);
  }

  /** `true` when `value` carries the `Symbol.for(markerName)` marker set by a snodo error class. */
  protected static hasMarker(value: unknown, markerName: string): boolean {
    return (
      value != null &&
      typeof value === 'object' &&
      (value as Record<symbol, unknown>)[Symbol.for(markerName)] === true
    );
  }
}
