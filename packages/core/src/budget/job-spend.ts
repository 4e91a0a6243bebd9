import { sumUsage } from '@snodo/llm';
import type { RoleUsage } from '../jobs/index.js';
import type { JobBudget } from './job-budget.js';

/** What a job has spent so far, across every role. */
export interface JobSpend {
  /** Dollars, or `null` when some role's cost is unknown (no price and none reported). */
  readonly costUsd: number | null;
  /** Input plus output tokens. */
  readonly tokens: number;
}

/** Which cap a spend crossed, and by how much, as a budget halt reports it. */
export interface BudgetCrossing {
  readonly cap: 'cost' | 'tokens';
  readonly limit: number;
  readonly spent: JobSpend;
}

/** Sums the roles' usage the way the caps count it. */
export function jobSpend(usage: Readonly<Record<string, RoleUsage>>): JobSpend {
  const total = sumUsage(Object.values(usage));
  return { costUsd: total.costUsd, tokens: total.inputTokens + total.outputTokens };
}

/**
 * The first cap the spend reached (a cap is crossed once the spend is at or above it, so a run that used
 * exactly its budget stops before it spends more). An unknown cost cannot cross a dollar cap: then only
 * the token cap (always known) can stop the job, and `snodo meta` shows the cost as unknown.
 */
export function crossedCap(budget: JobBudget, spent: JobSpend): BudgetCrossing | undefined {
  const cost = budget.maxCostUsd?.value;
  if (cost !== undefined && spent.costUsd !== null && spent.costUsd >= cost) {
    return { cap: 'cost', limit: cost, spent };
  }
  const tokens = budget.maxTokens?.value;
  if (tokens !== undefined && spent.tokens >= tokens) return { cap: 'tokens', limit: tokens, spent };
  return undefined;
}

/** "$0.0123 of $0.0100" / "1,234 of 1,000 tokens", for summaries and `snodo task show`. */
export function describeCrossing(crossing: BudgetCrossing): string {
  const { spent } = crossing;
  const dollars = spent.costUsd === null ? 'an unknown cost' : formatUsd(spent.costUsd);
  return crossing.cap === 'cost'
    ? `spent ${dollars} of the ${formatUsd(crossing.limit)} cap (${spent.tokens.toLocaleString('en-US')} tokens)`
    : `used ${spent.tokens.toLocaleString('en-US')} of the ${crossing.limit.toLocaleString('en-US')}-token cap (${dollars})`;
}

/** Dollars with enough digits for the small sums of judge calls. */
export function formatUsd(value: number): string {
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}
