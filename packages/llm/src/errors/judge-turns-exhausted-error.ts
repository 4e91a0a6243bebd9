import type { LlmUsage } from '../llm-usage.js';
import { LlmError } from './llm-error.js';

const marker = 'snodo.error.JUDGE_TURNS_EXHAUSTED';

/** What `generateVerdictWithTools` knows when its judge used every turn without answering. */
export interface JudgeTurnsExhaustedDetails {
  /** The canonical model string. */
  readonly model: string;
  /** The turn budget (model calls) the loop had. */
  readonly maxTurns: number;
  /** Tokens and cost of every turn: the calls happened and cost money although no verdict came of them. */
  readonly usage: LlmUsage;
}

/**
 * A judge with tools was still calling tools when its turn budget (`max_turns` on the validator) ran out,
 * so it never answered. That is no verdict: the caller fails closed (an error verdict), never a pass.
 */
export class JudgeTurnsExhaustedError extends LlmError<'JUDGE_TURNS_EXHAUSTED'> {
  /** The canonical model string. */
  readonly model: string;
  /** The turn budget that ran out. */
  readonly maxTurns: number;
  /** Usage of every turn. */
  readonly usage: LlmUsage;

  constructor(details: JudgeTurnsExhaustedDetails) {
    super('JUDGE_TURNS_EXHAUSTED', {
      message:
        `${details.model} used all ${details.maxTurns} turns of its tool loop and gave no verdict. ` +
        'Raise max_turns on the validator in .snodo/protocol.yml, or narrow its criteria so it needs to read less.',
    });
    this.name = 'JudgeTurnsExhaustedError';
    LlmError.mark(this, marker);
    this.model = details.model;
    this.maxTurns = details.maxTurns;
    this.usage = details.usage;
  }

  static override isInstance(value: unknown): value is JudgeTurnsExhaustedError {
    return LlmError.hasMarker(value, marker);
  }
}
