import { hasErrorMarker, markError } from './error-marker.js';

const rootMarker = 'snodo.error';

/** The options every snodo error takes: one object, so context fields stay named. */
export interface SnodoErrorOptions {
  /** What failed, why, and what to type next. */
  readonly message: string;
  /** The underlying error, kept for logs and `--verbose`. */
  readonly cause?: unknown;
}

/**
 * The root of every snodo error, in every package. `code` is stable (`CODER_TIMEOUT`): the CLI maps codes to
 * exit codes in one place and scripts may match on them; each package exports the union of its codes, and
 * the CLI's map must cover all of them to compile.
 *
 * `isInstance` checks a `Symbol.for` marker instead of `instanceof`, so the check holds when an application
 * ends up with two copies of a snodo package (or of this one). A subclass sets a marker of its own with
 * `SnodoError.mark` (by convention `snodo.error.<CODE>`) and tests it with `SnodoError.hasMarker`; an error
 * without fields of its own is simpler still with `defineSnodoError`.
 */
export class SnodoError<Code extends string = string> extends Error {
  /** The stable error code. */
  readonly code: Code;

  constructor(code: Code, options: SnodoErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SnodoError';
    this.code = code;
    markError(this, rootMarker);
  }

  /** `true` for any snodo error, from any copy of any snodo package. */
  static isInstance(value: unknown): value is SnodoError {
    return hasErrorMarker(value, rootMarker);
  }

  /** Sets the (non-enumerable) `Symbol.for(markerName)` marker on `error`; subclasses call it once. */
  protected static mark(error: Error, markerName: string): void {
    markError(error, markerName);
  }

  /** `true` when `value` carries the `Symbol.for(markerName)` marker set by a snodo error class. */
  protected static hasMarker(value: unknown, markerName: string): boolean {
    return hasErrorMarker(value, markerName);
  }
}

/**
 * The codes of some error classes, read off the classes: `SnodoErrorCodeOf<typeof A | typeof B>`. Each
 * package exports the union of its own, so a renamed code changes the union where it is defined.
 */
export type SnodoErrorCodeOf<Class extends abstract new (...args: never) => SnodoError> =
  InstanceType<Class>['code'];
