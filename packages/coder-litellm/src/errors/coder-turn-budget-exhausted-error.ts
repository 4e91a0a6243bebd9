import { type CoderV1Usage, SnodoError } from '@snodo/coder-sdk';

const name = 'CoderTurnBudgetExhaustedError';
const marker = 'snodo.error.CODER_TURN_BUDGET_EXHAUSTED';
const symbol = Symbol.for(marker);

/**
 * The model used every turn of the tool loop (reading files, listing directories) without ever calling
 * `submit_files`. The loop is bounded so a model that keeps exploring cannot spend without end.
 */
export class CoderTurnBudgetExhaustedError extends SnodoError<'CODER_TURN_BUDGET_EXHAUSTED'> {
  private readonly [symbol] = true;

  /** The coder's id. */
  readonly coderId: string;
  /** The canonical model string. */
  readonly model: string;
  /** The turn budget that ran out (`max_tool_turns`). */
  readonly maxTurns: number;
  /** Tokens and cost spent on the attempt. */
  readonly usage: CoderV1Usage;

  constructor(options: {
    coderId: string;
    displayName: string;
    model: string;
    maxTurns: number;
    lastToolCalls: readonly string[];
    usage: CoderV1Usage;
  }) {
    const last =
      options.lastToolCalls.length === 0 ? '' : ` Its last turn called ${options.lastToolCalls.join(', ')}.`;
    super('CODER_TURN_BUDGET_EXHAUSTED', {
      message:
        `${options.displayName}: ${options.model} used all ${options.maxTurns} turns without submitting a ` +
        `change through submit_files, so nothing was written.${last} Raise the budget with ` +
        "`snodo config set llm.coder.max_tool_turns <n>` (or max_tool_turns in the mode's coder_config), " +
        'name the files to change in the task, or split the task.',
    });
    this.name = name;
    this.coderId = options.coderId;
    this.model = options.model;
    this.maxTurns = options.maxTurns;
    this.usage = options.usage;
  }

  static override isInstance(value: unknown): value is CoderTurnBudgetExhaustedError {
    return SnodoError.hasMarker(value, marker);
  }
}
