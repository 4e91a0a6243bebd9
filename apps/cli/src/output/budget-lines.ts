import type { JobState } from '@snodo/core/jobs';
import { formatCost, formatCount } from './format.js';
import type { Palette } from './palette.js';

const WHERE: Readonly<Record<string, string>> = {
  pre_execute: 'before the coder ran',
  execute: 'while the coder ran (stopped; its work is on the branch)',
  post_execute: 'after the post-execute gates',
};

function describeSource(source: string): string {
  return source === 'flag' ? 'flag' : source === 'approve' ? 'raised on approve' : source;
}

/**
 * The spend against the caps, for `snodo meta` and `snodo task show` (SPEC §15): each cap with its source,
 * what every role spent (dollars and tokens) with its share of the caps, and, for a job stopped at a cap,
 * where it stopped and the command that continues it. Nothing when the job has no caps.
 */
export function budgetLines(state: JobState, palette: Palette): string[] {
  const budget = state.budget;
  if (budget === undefined) return [];
  const caps: string[] = [];
  if (budget.maxCostUsd !== undefined) {
    caps.push(`${formatCost(budget.maxCostUsd.value)} (${describeSource(budget.maxCostUsd.source)})`);
  }
  if (budget.maxTokens !== undefined) {
    caps.push(`${formatCount(budget.maxTokens.value)} tokens (${describeSource(budget.maxTokens.source)})`);
  }
  const share = (part: number | null, cap: number | undefined) =>
    part === null || cap === undefined ? '' : ` ${Math.round((part / cap) * 100)}%`;
  const lines = [`  budget    ${caps.join(' and ')} for the whole job`];
  let totalCost: number | null = 0;
  let totalTokens = 0;
  for (const [role, usage] of Object.entries(state.usage)) {
    const tokens = usage.inputTokens + usage.outputTokens;
    totalTokens += tokens;
    totalCost = totalCost === null || usage.costUsd === null ? null : totalCost + usage.costUsd;
    lines.push(
      `    ${role.padEnd(10)} ${formatCost(usage.costUsd)}${share(usage.costUsd, budget.maxCostUsd?.value)}` +
        `, ${formatCount(tokens)} tokens${share(tokens, budget.maxTokens?.value)}`,
    );
  }
  lines.push(
    `    ${'spent'.padEnd(10)} ${formatCost(totalCost)}${share(totalCost, budget.maxCostUsd?.value)}` +
      `, ${formatCount(totalTokens)} tokens${share(totalTokens, budget.maxTokens?.value)}`,
  );
  const exceeded = budget.exceeded;
  if (exceeded !== undefined) {
    const cap = exceeded.cap === 'cost' ? 'dollar' : 'token';
    const flag = exceeded.cap === 'cost' ? '--budget <usd>' : '--max-tokens <n>';
    lines.push(
      `  ${palette.yellow('stopped')}   at the ${cap} cap ${WHERE[exceeded.phase] ?? exceeded.phase}; ` +
        `continue with snodo task approve ${state.jobId} ${flag} --reason "…"`,
    );
  }
  return lines;
}
