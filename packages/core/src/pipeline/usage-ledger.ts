import type { CoderV1Usage } from '@snodo/coder-sdk';
import { computeCostUsd, lookupPrice, type PriceOverrides } from '@snodo/llm';
import type { RoleUsage } from '../jobs/index.js';

/** One usage report to add to a role: the SDK's coder usage and the llm package's usage share this shape. */
export interface UsageReport {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  /** Of `inputTokens`, those written to the provider's cache (priced at the cache-write price). */
  readonly cacheWriteTokens?: number | undefined;
  readonly costUsd: number | null;
  readonly source: 'reported' | 'estimated';
  readonly model?: string | undefined;
}

function emptyRoleUsage(): RoleUsage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    costUsd: 0,
    source: 'reported',
    calls: 0,
    models: [],
  };
}

/**
 * Sums token usage and cost per role (`coder`, `judges`, `classifier`) for `state.json` and `snodo meta`.
 * A cost the coder or provider reported wins; otherwise the price catalog (with config overrides) fills it
 * in and the role is marked `estimated`; a cost nobody knows makes the role's cost `null`.
 */
export class UsageLedger {
  private readonly roles = new Map<string, RoleUsage>();

  constructor(
    private readonly prices?: PriceOverrides,
    recorded: Readonly<Record<string, RoleUsage>> = {},
  ) {
    for (const [role, usage] of Object.entries(recorded)) this.roles.set(role, { ...usage });
  }

  add(role: string, report: UsageReport | CoderV1Usage): RoleUsage {
    const current = this.roles.get(role) ?? emptyRoleUsage();
    const cacheWrite = 'cacheWriteTokens' in report ? (report.cacheWriteTokens ?? 0) : 0;
    let cost = report.costUsd;
    let source = report.source;
    if (cost === null && report.model !== undefined) {
      const found = lookupPrice(report.model, this.prices);
      if (found) {
        cost = computeCostUsd(
          {
            inputTokens: Math.max(0, report.inputTokens - cacheWrite),
            outputTokens: report.outputTokens,
            cacheReadTokens: report.cachedInputTokens,
            cacheWriteTokens: cacheWrite,
          },
          found.price,
        );
        source = 'estimated';
      }
    }
    const next: RoleUsage = {
      inputTokens: current.inputTokens + report.inputTokens,
      outputTokens: current.outputTokens + report.outputTokens,
      cachedInputTokens: current.cachedInputTokens + report.cachedInputTokens,
      ...(cacheWrite > 0 || current.cacheWriteTokens !== undefined
        ? { cacheWriteTokens: (current.cacheWriteTokens ?? 0) + cacheWrite }
        : {}),
      costUsd: current.costUsd === null || cost === null ? null : current.costUsd + cost,
      source: current.source === 'estimated' || source === 'estimated' ? 'estimated' : 'reported',
      calls: current.calls + 1,
      models:
        report.model === undefined || current.models.includes(report.model)
          ? current.models
          : [...current.models, report.model],
    };
    this.roles.set(role, next);
    return next;
  }

  /** Input plus output tokens across every role. */
  totalTokens(): number {
    let total = 0;
    for (const usage of this.roles.values()) total += usage.inputTokens + usage.outputTokens;
    return total;
  }

  snapshot(): Record<string, RoleUsage> {
    return Object.fromEntries(this.roles);
  }
}

/** Dollars as whole micro-dollars: audit events carry integers only. */
export function toMicroDollars(costUsd: number | null): number | null {
  return costUsd === null ? null : Math.round(costUsd * 1_000_000);
}
