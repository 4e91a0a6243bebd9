import { checkBudgetValue, describeCrossing, formatUsd, type JobBudget } from '../budget/index.js';
import { JobActionRefusedError } from '../errors.js';
import type { JobState } from '../jobs/index.js';
import { auditCap, watchBudget } from '../pipeline/budget-halt.js';
import type { JobRun } from '../pipeline/job-run.js';
import { toMicroDollars } from '../pipeline/usage-ledger.js';

/** What `snodo task approve <job> --budget <usd> --max-tokens <n>` asks for. */
export interface BudgetRaise {
  readonly maxCostUsd?: number | undefined;
  readonly maxTokens?: number | undefined;
}

function refuse(jobId: string, reason: string, hint?: string): JobActionRefusedError {
  return new JobActionRefusedError({ jobId, action: 'approve', reason, ...(hint ? { hint } : {}) });
}

/**
 * The caps a budget-stopped job continues under (SPEC §15), or the refusal: a plain approve (the budget is
 * the question asked), a raise on a job that did not stop at its budget, a value that is not a cap, a new
 * cap not above what the job has already spent, or a raise that leaves the cap it crossed where it was.
 */
export function raisedBudget(state: JobState, raise: BudgetRaise): JobBudget {
  const { jobId } = state;
  const exceeded = state.budget?.exceeded;
  const asked = raise.maxCostUsd !== undefined || raise.maxTokens !== undefined;
  if (exceeded === undefined) {
    if (!asked) return { ...state.budget };
    throw refuse(
      jobId,
      'it did not stop at its budget, so there is no cap to raise',
      `Approve it without --budget/--max-tokens; see why it halted with 'snodo task show ${jobId}'.`,
    );
  }
  const spent = { costUsd: exceeded.costUsd, tokens: exceeded.tokens };
  const crossing = describeCrossing({ cap: exceeded.cap, limit: exceeded.limit, spent });
  if (!asked) {
    throw refuse(
      jobId,
      `it stopped at its budget (it ${crossing}), and approving means spending more`,
      exceeded.cap === 'cost'
        ? `Approve with a higher cap: 'snodo task approve ${jobId} --budget <usd>' (above ${formatUsd(exceeded.costUsd ?? exceeded.limit)}).`
        : `Approve with a higher cap: 'snodo task approve ${jobId} --max-tokens <n>' (above ${exceeded.tokens}).`,
    );
  }
  let cost = state.budget?.maxCostUsd;
  let tokens = state.budget?.maxTokens;
  if (raise.maxCostUsd !== undefined) {
    const value = checkBudgetValue('cost', raise.maxCostUsd, '--budget');
    if (exceeded.costUsd !== null && value <= exceeded.costUsd) {
      throw refuse(
        jobId,
        `--budget ${value} is not above what the job has already spent (${formatUsd(exceeded.costUsd)})`,
        'Give a cap above the spend so far, or close the job with snodo task reject.',
      );
    }
    cost = { value, source: 'approve' };
  }
  if (raise.maxTokens !== undefined) {
    const value = checkBudgetValue('tokens', raise.maxTokens, '--max-tokens');
    if (value <= exceeded.tokens) {
      throw refuse(
        jobId,
        `--max-tokens ${value} is not above the ${exceeded.tokens} tokens the job has already used`,
        'Give a cap above the tokens used so far, or close the job with snodo task reject.',
      );
    }
    tokens = { value, source: 'approve' };
  }
  const stillCrossed =
    exceeded.cap === 'cost' ? raise.maxCostUsd === undefined : raise.maxTokens === undefined;
  if (stillCrossed) {
    throw refuse(
      jobId,
      `it stopped at its ${exceeded.cap === 'cost' ? 'dollar' : 'token'} cap (it ${crossing}), which this approve leaves as it was`,
      exceeded.cap === 'cost' ? `Raise it with --budget <usd>.` : `Raise it with --max-tokens <n>.`,
    );
  }
  return { ...(cost ? { maxCostUsd: cost } : {}), ...(tokens ? { maxTokens: tokens } : {}) };
}

/**
 * Records a human's raise (`budget-raise` in the audit log for each cap that changed, with the old and new
 * value and the spend so far) and puts the job back under watch with the new caps; `state.json` loses the
 * crossing, so the job reads as one with a budget again.
 */
export async function recordBudgetRaise(
  run: JobRun,
  state: JobState,
  budget: JobBudget,
  actor: string,
): Promise<void> {
  const at = new Date().toISOString();
  const exceeded = state.budget?.exceeded;
  const spent = {
    spent_tokens: exceeded?.tokens ?? 0,
    spent_cost_micro_usd: toMicroDollars(exceeded?.costUsd ?? null),
  };
  const caps = [
    ['cost', state.budget?.maxCostUsd, budget.maxCostUsd],
    ['tokens', state.budget?.maxTokens, budget.maxTokens],
  ] as const;
  for (const [cap, before, after] of caps) {
    if (after === undefined || after.source !== 'approve') continue;
    await run.audit(
      'budget-raise',
      {
        by: actor,
        at,
        cap,
        old: before === undefined ? null : auditCap(cap, before.value),
        new: auditCap(cap, after.value),
        ...spent,
      },
      actor,
    );
    run.note('info', `Budget raised: ${cap === 'cost' ? formatUsd(after.value) : `${after.value} tokens`}.`);
  }
  await watchBudget(run, budget);
}
