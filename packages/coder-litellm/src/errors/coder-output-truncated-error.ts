import { type CoderV1Usage, SnodoError } from '@snodo/coder-sdk';

const name = 'CoderOutputTruncatedError';
const marker = 'snodo.error.CODER_OUTPUT_TRUNCATED';
const symbol = Symbol.for(marker);

/**
 * The model's answer was cut off at the output token limit (finish reason `length`, Anthropic's
 * `max_tokens`, Gemini's `MAX_TOKENS`). A cut-off answer is never used: half a file is worse than none,
 * and the Python original once reported such runs as success with nothing written.
 */
export class CoderOutputTruncatedError extends SnodoError<'CODER_OUTPUT_TRUNCATED'> {
  private readonly [symbol] = true;

  /** The coder's id. */
  readonly coderId: string;
  /** The canonical model string (`openai/gpt-4o`). */
  readonly model: string;
  /** The output token limit that was hit. */
  readonly maxOutputTokens: number;
  /** The provider's own finish reason (`length`, `max_tokens`, `MAX_TOKENS`), when it sent one. */
  readonly rawFinishReason: string | undefined;
  /** The model call (turn) that was cut off, counting from 1. */
  readonly turn: number;
  /** Tokens and cost spent on the attempt before it stopped. */
  readonly usage: CoderV1Usage;

  constructor(options: {
    coderId: string;
    displayName: string;
    model: string;
    maxOutputTokens: number;
    rawFinishReason: string | undefined;
    turn: number;
    usage: CoderV1Usage;
  }) {
    const raw = options.rawFinishReason === undefined ? '' : ` (finish reason "${options.rawFinishReason}")`;
    super('CODER_OUTPUT_TRUNCATED', {
      message:
        `${options.displayName}: the answer of ${options.model} was cut off at the output token limit of ` +
        `${options.maxOutputTokens} tokens on turn ${options.turn}${raw}, so nothing was used and nothing ` +
        'was written. Raise the limit with `snodo config set llm.coder.max_tokens <n>` (or max_tokens in ' +
        "the mode's coder_config), or split the task into smaller changes.",
    });
    this.name = name;
    this.coderId = options.coderId;
    this.model = options.model;
    this.maxOutputTokens = options.maxOutputTokens;
    this.rawFinishReason = options.rawFinishReason;
    this.turn = options.turn;
    this.usage = options.usage;
  }

  static override isInstance(value: unknown): value is CoderOutputTruncatedError {
    return SnodoError.hasMarker(value, marker);
  }
}
