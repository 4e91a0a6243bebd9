import type { LanguageModelUsage } from 'ai';
import type { PriceOverrides } from './llm-settings.js';
import { MOCK_RAW_USAGE } from './mock-model.js';
import type { ParsedModelString } from './parse-model-string.js';
import { computeCostUsd, lookupPrice } from './price-catalog.js';

/**
 * Token usage and cost of one or more model calls, normalised across providers; the same shape as a
 * coder's usage (`CoderV1Usage`), so `snodo meta` sums judges, classifier and coder alike.
 */
export interface LlmUsage {
  /** Input tokens, excluding those read from the provider's cache (cache writes are included). */
  readonly inputTokens: number;
  /** Output tokens, including reasoning tokens. */
  readonly outputTokens: number;
  /** Input tokens read from the provider's cache, priced at the cache-read price. */
  readonly cachedInputTokens: number;
  /**
   * Of `inputTokens`, those written to the provider's cache (Anthropic's `cache_creation_input_tokens`),
   * priced at the cache-write price. Present only when a call wrote to the cache.
   */
  readonly cacheWriteTokens?: number;
  /** Cost in US dollars, or `null` when the provider reported none and the catalog has no price. */
  readonly costUsd: number | null;
  /**
   * `reported`: the provider (or proxy) reported the cost, or the call was a mock that costs nothing.
   * `estimated`: snodo computed the cost from the token counts and the price catalog, or could not.
   */
  readonly source: 'reported' | 'estimated';
}

/** Token counts gathered from one or more calls, before pricing. Internal to this package. */
export interface UsageTally {
  readonly noCacheTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
  /** The cost the provider reported for every call tallied, or `undefined` when any call lacked one. */
  readonly reportedCostUsd: number | undefined;
  /** Whether every tallied call was the mock. */
  readonly mock: boolean;
  /** How many calls were tallied. */
  readonly calls: number;
}

/**
 * Reads the AI SDK's usage of one call. A cost the provider reports is kept: OpenRouter puts `cost` in its
 * usage object, a LiteLLM proxy sends the `x-litellm-response-cost` header.
 */
export function tallyUsage(
  usage: LanguageModelUsage | undefined,
  responseHeaders?: Readonly<Record<string, string | undefined>>,
): UsageTally {
  const cacheRead = usage?.inputTokenDetails?.cacheReadTokens ?? usage?.cachedInputTokens ?? 0;
  const cacheWrite = usage?.inputTokenDetails?.cacheWriteTokens ?? 0;
  const total = usage?.inputTokens ?? 0;
  const noCache = usage?.inputTokenDetails?.noCacheTokens ?? Math.max(0, total - cacheRead - cacheWrite);
  const raw = usage?.raw as Record<string, unknown> | undefined;
  return {
    noCacheTokens: noCache,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: usage?.outputTokens ?? 0,
    reportedCostUsd: reportedCost(raw, responseHeaders),
    mock: raw?.mock === MOCK_RAW_USAGE.mock,
    calls: 1,
  };
}

/** Adds two tallies (a call and its repair attempt, or the steps of a tool loop). */
export function addTallies(left: UsageTally, right: UsageTally): UsageTally {
  return {
    noCacheTokens: left.noCacheTokens + right.noCacheTokens,
    cacheReadTokens: left.cacheReadTokens + right.cacheReadTokens,
    cacheWriteTokens: left.cacheWriteTokens + right.cacheWriteTokens,
    outputTokens: left.outputTokens + right.outputTokens,
    reportedCostUsd:
      left.reportedCostUsd === undefined || right.reportedCostUsd === undefined
        ? undefined
        : left.reportedCostUsd + right.reportedCostUsd,
    mock: left.mock && right.mock,
    calls: left.calls + right.calls,
  };
}

/**
 * Prices a tally: a reported cost wins; a mock costs exactly nothing; otherwise the tokens are priced with
 * the catalog (and config overrides), or the cost is `null` when the model has no price.
 */
export function priceTally(
  tally: UsageTally,
  model: string | ParsedModelString,
  prices?: PriceOverrides,
): LlmUsage {
  const counts = {
    inputTokens: tally.noCacheTokens + tally.cacheWriteTokens,
    outputTokens: tally.outputTokens,
    cachedInputTokens: tally.cacheReadTokens,
    ...(tally.cacheWriteTokens > 0 ? { cacheWriteTokens: tally.cacheWriteTokens } : {}),
  };
  if (tally.reportedCostUsd !== undefined)
    return { ...counts, costUsd: tally.reportedCostUsd, source: 'reported' };
  if (tally.mock && tally.calls > 0) return { ...counts, costUsd: 0, source: 'reported' };
  const price = lookupPrice(model, prices);
  const costUsd =
    price === null
      ? null
      : computeCostUsd(
          {
            inputTokens: tally.noCacheTokens,
            outputTokens: tally.outputTokens,
            cacheReadTokens: tally.cacheReadTokens,
            cacheWriteTokens: tally.cacheWriteTokens,
          },
          price.price,
        );
  return { ...counts, costUsd, source: 'estimated' };
}

/**
 * Normalises the AI SDK's usage of a call to `LlmUsage` and prices it. For callers that run `generateText`
 * themselves (the litellm coder's tool loop passes `totalUsage`).
 */
export function normalizeUsage(
  usage: LanguageModelUsage | undefined,
  options: {
    /** The model the usage belongs to, for the price lookup. */
    readonly model: string | ParsedModelString;
    /** Config price overrides. */
    readonly prices?: PriceOverrides | undefined;
    /** The response headers, where a LiteLLM proxy reports the cost. */
    readonly responseHeaders?: Readonly<Record<string, string | undefined>> | undefined;
  },
): LlmUsage {
  return priceTally(tallyUsage(usage, options.responseHeaders), options.model, options.prices);
}

/** Adds usages of several calls (per role, per job). A `null` cost makes the sum's cost `null`. */
export function sumUsage(usages: readonly LlmUsage[]): LlmUsage {
  let inputTokens = 0;
  let outputTokens = 0;
  let cachedInputTokens = 0;
  let cacheWriteTokens = 0;
  let costUsd: number | null = 0;
  let source: LlmUsage['source'] = 'reported';
  for (const usage of usages) {
    inputTokens += usage.inputTokens;
    outputTokens += usage.outputTokens;
    cachedInputTokens += usage.cachedInputTokens;
    cacheWriteTokens += usage.cacheWriteTokens ?? 0;
    costUsd = costUsd === null || usage.costUsd === null ? null : costUsd + usage.costUsd;
    if (usage.source === 'estimated') source = 'estimated';
  }
  return {
    inputTokens,
    outputTokens,
    cachedInputTokens,
    ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}),
    costUsd,
    source,
  };
}

function reportedCost(
  raw: Record<string, unknown> | undefined,
  headers: Readonly<Record<string, string | undefined>> | undefined,
): number | undefined {
  if (typeof raw?.cost === 'number' && Number.isFinite(raw.cost)) return raw.cost;
  const header = headers?.['x-litellm-response-cost'];
  if (header === undefined || header.trim() === '') return undefined;
  const value = Number(header);
  return Number.isFinite(value) ? value : undefined;
}
