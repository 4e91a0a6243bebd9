import { hasErrorMarker, markError } from './error-marker.js';
import { SnodoError, type SnodoErrorOptions } from './snodo-error.js';

/** What `defineSnodoError` needs: the error's name, its code and how its message reads. */
export interface SnodoErrorDefinition<Code extends string, Options extends object> {
  /** The class name, shown as `error.name` (`ModeUnknownError`). */
  readonly name: string;
  /** The stable code (`MODE_UNKNOWN`). */
  readonly code: Code;
  /** Builds the message from the options: what failed, why, and what to type next. */
  readonly message: (options: Options) => string;
  /** The root to extend when a package has a named one (`LlmError`). Default `SnodoError`. */
  readonly base?: typeof SnodoError;
  /** The marker `isInstance` checks. Default `snodo.error.<code>`. */
  readonly marker?: string;
}

/** A class made by `defineSnodoError`: `new X(options)`, `X.isInstance(value)`, `error.code`. */
export interface SnodoErrorClass<Code extends string, Options extends object> {
  new (options: Options & { readonly cause?: unknown }): SnodoError<Code>;
  /** `true` for this error from any copy of its package (a marker, not `instanceof`). */
  isInstance(value: unknown): value is SnodoError<Code>;
}

/**
 * An error class with a code, a message and `isInstance`, and no fields of its own: most errors are read by
 * people (the message) and by programs (the code), never field by field. An error whose fields callers read
 * (`GitCommandError.stderr`) is a class of its own extending `SnodoError`.
 */
export function defineSnodoError<Code extends string, Options extends object>(
  definition: SnodoErrorDefinition<Code, Options>,
): SnodoErrorClass<Code, Options> {
  const { name, code, message } = definition;
  const marker = definition.marker ?? `snodo.error.${code}`;
  const Base = definition.base ?? SnodoError;
  const Defined = class extends Base<Code> {
    constructor(options: Options & { readonly cause?: unknown }) {
      const base: SnodoErrorOptions = { message: message(options), cause: options.cause };
      super(code, base);
      this.name = name;
      markError(this, marker);
    }

    static override isInstance(value: unknown): value is SnodoError<Code> {
      return hasErrorMarker(value, marker);
    }
  };
  Object.defineProperty(Defined, 'name', { value: name });
  return Defined;
}
