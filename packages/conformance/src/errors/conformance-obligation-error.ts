import { SnodoError } from '@snodo/coder-sdk';

const name = 'ConformanceObligationError';
const marker = 'snodo.error.CONFORMANCE_OBLIGATION_FAILED';
const symbol = Symbol.for(marker);

/**
 * An adapter failed one conformance obligation. The message starts with the obligation's name in
 * brackets, says what was expected and what happened, and ends with how to fix it; `obligation` carries
 * the name for programs (`runCoderConformance` results, CI annotations).
 */
export class ConformanceObligationError extends SnodoError {
  private readonly [symbol] = true;

  /** The obligation that failed (`argv-prompt-single-argument`). */
  readonly obligation: string;
  /** What went wrong, without the name prefix and the fix. */
  readonly problem: string;

  constructor(options: { obligation: string; problem: string; fix?: string; cause?: unknown }) {
    const fix = options.fix === undefined ? '' : ` Fix: ${options.fix}`;
    super('CONFORMANCE_OBLIGATION_FAILED', {
      message: `[${options.obligation}] ${options.problem}${fix}`,
      cause: options.cause,
    });
    this.name = name;
    this.obligation = options.obligation;
    this.problem = options.problem;
  }

  static override isInstance(value: unknown): value is ConformanceObligationError {
    return SnodoError.hasMarker(value, marker);
  }
}
