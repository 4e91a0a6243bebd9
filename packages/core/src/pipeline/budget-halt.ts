import {
  type BudgetCrossing,
  BudgetWatch,
  describeCrossing,
  hasBudget,
  type JobBudget,
} from '../budget/index.js';
import type { JobState } from '../jobs/index.js';
import type { JobEnding } from './job-ending.js';
import type { JobRun } from './job-run.js';
import { toMicroDollars } from './usage-ledger.js';

/** A cap as the audit log records it: tokens, or micro-dollars for cost. */
export function auditCap(cap: 'cost' | 'tokens', value: number): number {
  return cap === 'cost' ? (toMicroDollars(value) ?? 0) : value;
}

/** The caps in `state.json`'s shape. */
function budgetRecord(budget: JobBudget): NonNullable<JobState['budget']> {
  return {
    ...(budget.maxCostUsd ? { maxCostUsd: { ...budget.maxCostUsd } } : {}),
    ...(budget.maxTokens ? { maxTokens: { ...budget.maxTokens } } : {}),
  };
}

/** Starts watching a job's caps: records them in `state.json` and hangs the watch on the run. */
export async function watchBudget(run: JobRun, budget: JobBudget): Promise<void> {
  if (!hasBudget(budget)) return;
  run.budget = new BudgetWatch(budget, run.usage, run.context.config.prices, (message) =>
    run.note('warn', message),
  );
  await run.updateState((state) => ({ ...state, budget: budgetRecord(budget) }));
}

const WHERE: Readonly<Record<string, string>> = {
  pre_execute: 'before the coder ran',
  execute: 'while the coder ran; it was stopped and its work so far is kept on the task branch',
  post_execute: 'after the post-execute gates, before another coder attempt',
};

/**
 * Ends a job whose spend reached a cap (SPEC §15): `budget-exceed` in the audit log with the spend per role,
 * the crossing in `state.json`, and an escalation that says how to go on. Nothing is landed; a human decides
 * whether the rest is worth it (`snodo task approve <job> --budget <usd>`) or closes it.
 */
export async function haltForBudget(
  run: JobRun,
  phase: 'pre_execute' | 'execute' | 'post_execute',
  crossing: BudgetCrossing,
): Promise<JobEnding> {
  const roles = run.usage.snapshot();
  await run.audit('budget-exceed', {
    cap: crossing.cap,
    limit: auditCap(crossing.cap, crossing.limit),
    phase,
    spent_tokens: crossing.spent.tokens,
    spent_cost_micro_usd: toMicroDollars(crossing.spent.costUsd),
    roles: Object.fromEntries(
      Object.entries(roles).map(([role, usage]) => [
        role,
        {
          input_tokens: usage.inputTokens,
          output_tokens: usage.outputTokens,
          cost_micro_usd: toMicroDollars(usage.costUsd),
          source: usage.source,
        },
      ]),
    ),
  });
  await run.updateState((state) => ({
    ...state,
    budget: {
      ...state.budget,
      exceeded: {
        cap: crossing.cap,
        limit: crossing.limit,
        costUsd: crossing.spent.costUsd,
        tokens: crossing.spent.tokens,
        phase,
        at: new Date().toISOString(),
      },
    },
  }));
  const flag = crossing.cap === 'cost' ? '--budget <usd>' : '--max-tokens <n>';
  return {
    status: 'halted',
    outcome: 'escalated',
    approveFlags: flag,
    summary:
      `The job reached its budget ${WHERE[phase]}: it ${describeCrossing(crossing)}. ` +
      `Continue with a higher cap: snodo task approve ${run.jobId} ${flag}.`,
  };
}
