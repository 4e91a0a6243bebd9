import type { CoderV1Usage } from '@snodo/coder-sdk';
import type { PriceOverrides } from '@snodo/llm';
import { UsageLedger } from '../pipeline/usage-ledger.js';
import type { JobBudget } from './job-budget.js';
import { type BudgetCrossing, crossedCap, jobSpend } from './job-spend.js';

/** The reason a budget stop aborts the coder with, so the abort is told apart from Ctrl-C. */
class BudgetStop extends Error {
  constructor(readonly crossing: BudgetCrossing) {
    super('the job reached its budget');
    this.name = 'BudgetStop';
  }
}

/**
 * Watches one job's spend against its caps as usage arrives (SPEC §15). Recorded usage (the classifier,
 * judges, finished coder attempts) is in the job's ledger; a running coder's usage so far arrives through
 * its `usage` events and is held here until the attempt ends. When the two together reach a cap, the
 * attempt's abort signal fires: the adapter stops the coder (the supervisor kills its process group).
 */
export class BudgetWatch {
  private controller = new AbortController();
  private inFlight: CoderV1Usage | undefined;
  private stopped: BudgetCrossing | undefined;
  private warnedUnpriced = false;

  constructor(
    readonly budget: JobBudget,
    private readonly ledger: UsageLedger,
    private readonly prices: PriceOverrides | undefined,
    /** Told once when a dollar cap cannot be checked because some usage has no known cost. */
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /** A fresh signal for one coder attempt: the run's own cancel, or this watch's budget stop. */
  attemptSignal(runSignal: AbortSignal | undefined): AbortSignal {
    this.controller = new AbortController();
    this.inFlight = undefined;
    this.stopped = undefined;
    return runSignal === undefined
      ? this.controller.signal
      : AbortSignal.any([runSignal, this.controller.signal]);
  }

  /**
   * A running coder reported its usage so far (cumulative for the attempt). Priced like the ledger prices
   * it (reported cost first, else the catalog with `model`); stops the attempt once a cap is reached.
   */
  observeCoderUsage(usage: CoderV1Usage, model: string | undefined): void {
    this.inFlight = { ...usage, ...(usage.model === undefined && model ? { model } : {}) };
    if (this.stopped !== undefined) return;
    const projected = new UsageLedger(this.prices, this.ledger.snapshot());
    projected.add('coder', this.inFlight);
    const spent = jobSpend(projected.snapshot());
    this.warnIfUnpriced(spent.costUsd);
    const crossing = crossedCap(this.budget, spent);
    if (crossing === undefined) return;
    this.stopped = crossing;
    this.controller.abort(new BudgetStop(crossing));
  }

  /** The crossing that stopped the current attempt, when the budget (not the user) stopped it. */
  stoppedAttempt(): BudgetCrossing | undefined {
    return this.stopped;
  }

  /** The running attempt's last reported usage, handed over once so the ledger can record it. */
  takeInFlightUsage(): CoderV1Usage | undefined {
    const usage = this.inFlight;
    this.inFlight = undefined;
    return usage;
  }

  /** Whether what the job has recorded so far already reaches a cap (checked before spending more). */
  crossedNow(): BudgetCrossing | undefined {
    const spent = jobSpend(this.ledger.snapshot());
    this.warnIfUnpriced(spent.costUsd);
    return crossedCap(this.budget, spent);
  }

  /** An unknown cost never crosses a dollar cap, so the user hears that the cap is blind, once. */
  private warnIfUnpriced(costUsd: number | null): void {
    if (costUsd !== null || this.budget.maxCostUsd === undefined || this.warnedUnpriced) return;
    this.warnedUnpriced = true;
    const models = Object.values(this.ledger.snapshot())
      .filter((usage) => usage.costUsd === null)
      .flatMap((usage) => usage.models);
    this.warn(
      `The dollar cap cannot be checked: snodo knows no price for ${models.length > 0 ? models.join(', ') : 'a model this job used'} ` +
        'and none was reported. Add one with `snodo config set prices.<model>.input <usd per million>` ' +
        '(and `.output`), or cap tokens with --max-tokens.',
    );
  }
}
