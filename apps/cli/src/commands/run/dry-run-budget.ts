import { formatCost, formatCount } from '../../output/format.js';
import type { DryRunBudget } from './dry-run-plan.js';

const FLAG_OF: Readonly<Record<string, string>> = { cost: '--max-cost', tokens: '--max-tokens' };

function describeSource(source: string, cap: 'cost' | 'tokens'): string {
  if (source === 'flag') return FLAG_OF[cap] ?? source;
  return source === 'protocol'
    ? `protocol execution.${cap === 'cost' ? 'max_cost_usd' : 'max_tokens'}`
    : source;
}

/** The `budget` row of `snodo run --dry-run`: each cap with where it comes from, or that there is none. */
export function budgetRow(budget: DryRunBudget, dim: (text: string) => string): string[] {
  const parts: string[] = [];
  const sources: string[] = [];
  if (budget.maxCostUsd !== null) {
    parts.push(formatCost(budget.maxCostUsd.value));
    sources.push(describeSource(budget.maxCostUsd.source, 'cost'));
  }
  if (budget.maxTokens !== null) {
    parts.push(`${formatCount(budget.maxTokens.value)} tokens`);
    sources.push(describeSource(budget.maxTokens.source, 'tokens'));
  }
  if (parts.length === 0)
    return ['budget', 'no cap', dim('(--max-cost, --max-tokens, execution.max_cost_usd)')];
  return ['budget', `${parts.join(' and ')} for the whole job (all roles)`, dim(`(${sources.join('; ')})`)];
}
