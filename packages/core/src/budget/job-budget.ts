import { BudgetInvalidError } from '../errors.js';
import type { Sourced } from '../project/coder-timeout.js';
import type { Protocol } from '../protocol/index.js';

/**
 * A job's spending caps (SPEC §15): dollars and tokens across every role (classifier, judges, coder), each
 * with where it came from (`flag`, `protocol`, `approve`). A cap left out is not checked.
 */
export interface JobBudget {
  readonly maxCostUsd?: Sourced<number> | undefined;
  readonly maxTokens?: Sourced<number> | undefined;
}

/** The caps a request may name on the command line (`--max-cost`, `--max-tokens`) or in an embedder. */
export interface BudgetRequest {
  readonly maxCostUsd?: number | undefined;
  readonly maxTokens?: number | undefined;
}

/**
 * Refuses a cap that cannot mean anything: not a finite number above zero, or tokens that are not whole.
 * `flag` names the place the user typed it, so the message says what to change.
 */
export function checkBudgetValue(kind: 'cost' | 'tokens', value: number, flag: string): number {
  const whole = kind === 'tokens' ? Number.isSafeInteger(value) : true;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || !whole) {
    throw new BudgetInvalidError({ flag, value: String(value), kind });
  }
  return value;
}

/** The job's caps: a flag over `execution.max_cost_usd` / `execution.max_tokens`, each checked. */
export function resolveJobBudget(request: BudgetRequest, protocol: Protocol): JobBudget {
  const cost =
    request.maxCostUsd !== undefined
      ? { value: checkBudgetValue('cost', request.maxCostUsd, '--max-cost'), source: 'flag' }
      : protocol.execution.max_cost_usd !== undefined
        ? { value: protocol.execution.max_cost_usd, source: 'protocol' }
        : undefined;
  const tokens =
    request.maxTokens !== undefined
      ? { value: checkBudgetValue('tokens', request.maxTokens, '--max-tokens'), source: 'flag' }
      : protocol.execution.max_tokens !== undefined
        ? { value: protocol.execution.max_tokens, source: 'protocol' }
        : undefined;
  return { ...(cost ? { maxCostUsd: cost } : {}), ...(tokens ? { maxTokens: tokens } : {}) };
}

/** Whether the job has any cap at all. */
export function hasBudget(budget: JobBudget | undefined): budget is JobBudget {
  return budget?.maxCostUsd !== undefined || budget?.maxTokens !== undefined;
}
