import { SnodoError, type SnodoErrorOptions } from '@snodo/foundation';

const marker = 'snodo.error.LlmError';

/** The options every `@snodo/llm` error takes (the foundation's). */
export type LlmErrorOptions = SnodoErrorOptions;

/**
 * The root of every `@snodo/llm` error: the foundation's `SnodoError` with a marker of its own, so
 * `LlmError.isInstance` tells a model call's own failure from anything else a call throws (`toLlmCallError`
 * passes those on as they are). Markers instead of `instanceof` keep the check true when an application
 * ends up with two copies of the package.
 */
export class LlmError<Code extends string = string> extends SnodoError<Code> {
  constructor(code: Code, options: LlmErrorOptions) {
    super(code, options);
    this.name = 'LlmError';
    SnodoError.mark(this, marker);
  }

  /** `true` for any `@snodo/llm` error, from any copy of the package. */
  static override isInstance(value: unknown): value is LlmError {
    return SnodoError.hasMarker(value, marker);
  }
}
