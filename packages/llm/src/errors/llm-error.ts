const name = 'LlmError';
const rootMarker = 'snodo.error';
const marker = 'snodo.error.LlmError';
const rootSymbol = Symbol.for(rootMarker);
const symbol = Symbol.for(marker);

/** The options every `@snodo/llm` error takes: one object, so context fields stay named. */
export interface LlmErrorOptions {
  /** What failed, why, and what to type next. */
  readonly message: string;
  /** The underlying error (an AI SDK error, a module-not-found error…), kept for logs and `--verbose`. */
  readonly cause?: unknown;
}

/**
 * The root of every `@snodo/llm` error. `code` is stable (`LLM_CALL_FAILED`): the CLI maps codes to exit
 * codes in one place and scripts may match on them.
 *
 * This package may not import `@snodo/coder-sdk`, so it carries its own root. It sets the shared
 * `Symbol.for('snodo.error')` marker, so `SnodoError.isInstance` from the SDK recognises it too, and its own
 * `Symbol.for('snodo.error.LlmError')` marker for `LlmError.isInstance`. Markers instead of `instanceof`
 * keep the checks true when an application ends up with two copies of the package.
 */
export class LlmError extends Error {
  /** The stable error code. */
  readonly code: string;

  constructor(code: string, options: LlmErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.code = code;
    // Non-enumerable markers: checks see them, logs and test diffs do not.
    Object.defineProperty(this, rootSymbol, { value: true });
    Object.defineProperty(this, symbol, { value: true });
  }

  /** `true` for any `@snodo/llm` error, from any copy of the package. */
  static isInstance(value: unknown): value is LlmError {
    return LlmError.hasMarker(value, marker);
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
