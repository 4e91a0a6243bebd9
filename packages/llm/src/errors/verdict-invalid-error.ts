import type { InvalidOutputDetails } from '../errors.js';
import type { LlmUsage } from '../llm-usage.js';
import { LlmError } from './llm-error.js';

const marker = 'snodo.error.VERDICT_INVALID';

/**
 * A judging model answered, but not with a valid verdict, even after the one repair attempt. The judge has
 * no verdict: the caller treats it as a gate error (fail closed, halt `validator_error`), never as a `warn`.
 */
export class VerdictInvalidError extends LlmError<'VERDICT_INVALID'> {
  /** The canonical model string. */
  readonly model: string;
  /** The last answer, as text, kept as evidence for the gate record. */
  readonly text: string;
  /** Why it was rejected. */
  readonly problem: string;
  /** Usage of both attempts. */
  readonly usage: LlmUsage;

  constructor(details: InvalidOutputDetails) {
    super('VERDICT_INVALID', {
      message:
        `${details.model} did not return a valid verdict, even after one repair attempt: ` +
        `${details.problem}. Use a judging model that supports structured output ` +
        '(-m, or llm.validator.model in config), or raise llm.validator.max_tokens if the answer was cut off.',
      cause: details.cause,
    });
    this.name = 'VerdictInvalidError';
    LlmError.mark(this, marker);
    this.model = details.model;
    this.text = details.text;
    this.problem = details.problem;
    this.usage = details.usage;
  }

  static override isInstance(value: unknown): value is VerdictInvalidError {
    return LlmError.hasMarker(value, marker);
  }
}
