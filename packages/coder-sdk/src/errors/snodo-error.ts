const name = 'SnodoError';
const marker = 'snodo.error';
const symbol = Symbol.for(marker);

/** The options every snodo error takes: one object, so context fields stay named. */
export interface SnodoErrorOptions {
  /** What failed, why, and what to type next. */
  readonly message: string;
  /** The underlying error, kept for logs and `--verbose`. */
  readonly cause?: unknown;
}

/**
 * The root of every snodo error. `code` is stable (`CODER_TIMEOUT`): the CLI maps codes to exit codes in
 * one place and scripts may match on them.
 *
 * `isInstance` checks a `Symbol.for` marker instead of `instanceof`, so the check holds when an application
 * ends up with two copies of a snodo package. Packages that may not import the SDK (`@snodo/audit`,
 * `@snodo/llm`) set the same `snodo.error` marker on their own root error, so `SnodoError.isInstance`
 * recognises every snodo error.
 */
export class SnodoError extends Error {
  private readonly [symbol] = true;

  /** The stable error code. */
  readonly code: string;

  constructor(code: string, options: SnodoErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.code = code;
  }

  /** `true` for any snodo error, from any copy of any snodo package. */
  static isInstance(value: unknown): value is SnodoError {
    return SnodoError.hasMarker(value, marker);
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
