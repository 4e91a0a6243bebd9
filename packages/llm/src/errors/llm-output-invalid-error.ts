import type { LlmUsage } from '../llm-usage.js';
import { LlmError } from './llm-error.js';

const name = 'LlmOutputInvalidError';
const marker = 'snodo.error.LLM_OUTPUT_INVALID';
const symbol = Symbol.for(marker);

/** What `generateStructured` knows when a model's answer failed validation twice. */
export interface InvalidOutputDetails {
  /** The canonical model string (`anthropic/claude-sonnet-4-5`). */
  readonly model: string;
  /** The last answer the model gave, as text (empty when it gave none). */
  readonly text: string;
  /** Why the last answer was rejected (a JSON parse error or the schema issues). */
  readonly problem: string;
  /** Tokens and cost of both attempts: the calls happened and cost money even though they failed. */
  readonly usage: LlmUsage;
  /** The AI SDK error of the last attempt. */
  readonly cause?: unknown;
}

/**
 * A model answered, but not with an object matching the requested schema, even after the one repair
 * attempt. Thrown by `generateStructured` (the classifier's path); `generateVerdict` throws
 * `VerdictInvalidError` instead. Either way the caller has no answer and must fail closed.
 */
export class LlmOutputInvalidError extends LlmError {
  /** The canonical model string. */
  readonly model: string;
  /** The last answer, as text. */
  readonly text: string;
  /** Why it was rejected. */
  readonly problem: string;
  /** Usage of both attempts. */
  readonly usage: LlmUsage;

  constructor(details: InvalidOutputDetails) {
    super('LLM_OUTPUT_INVALID', {
      message:
        `${details.model} did not answer with a valid object, even after one repair attempt: ` +
        `${details.problem}. Use a model that supports structured output (set llm.classifier.model), ` +
        'or raise max_tokens if the answer was cut off.',
      cause: details.cause,
    });
    this.name = name;
    Object.defineProperty(this, symbol, { value: true });
    this.model = details.model;
    this.text = details.text;
    this.problem = details.problem;
    this.usage = details.usage;
  }

  static override isInstance(value: unknown): value is LlmOutputInvalidError {
    return LlmError.hasMarker(value, marker);
  }
}
