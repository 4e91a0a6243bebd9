import type { PriceOverrides } from './llm-settings.js';
import { formatModelString, type ParsedModelString, parseModelString } from './parse-model-string.js';
import catalogFile from './price-catalog.json' with { type: 'json' };

/** Prices of one model in US dollars per million tokens. */
export interface ModelPrice {
  /** Uncached input tokens. */
  readonly input: number;
  /** Output tokens (reasoning included). */
  readonly output: number;
  /** Input tokens read from the provider's cache. */
  readonly cacheRead: number;
  /** Input tokens written to the provider's cache. */
  readonly cacheWrite: number;
}

/** One model of the committed price catalog, as `snodo models` lists it. */
export interface CatalogEntry {
  /** The provider name as snodo's model strings spell it (`anthropic`, `openrouter`). */
  readonly provider: string;
  /** The provider's model id. */
  readonly modelId: string;
  /** `provider/modelId`. */
  readonly model: string;
  /** Prices per million tokens. */
  readonly price: ModelPrice;
  /** The context window in tokens, when known. */
  readonly contextWindow: number | null;
  /** The most output tokens one call may produce, when known. */
  readonly maxOutputTokens: number | null;
}

/** Where the committed catalog comes from, for `snodo models` and the README. */
export interface PriceCatalogInfo {
  /** The day the catalog was generated (`YYYY-MM-DD`). */
  readonly generatedAt: string;
  /** The package and file the rows were read from. */
  readonly source: string;
  /** Licence and attribution of the data. */
  readonly attribution: string;
  /** How many models it prices. */
  readonly modelCount: number;
}

/** A price found for a model, and where it came from. */
export interface PriceLookup {
  /** The catalog row or override key that matched (`anthropic/claude-sonnet-4-5`). */
  readonly model: string;
  /** The prices per million tokens. */
  readonly price: ModelPrice;
  /** `config` when an override supplied any of the prices. */
  readonly source: 'catalog' | 'config';
}

/** Token counts to price; cache reads and writes are priced apart from plain input. */
export interface TokenCounts {
  /** Uncached input tokens (excluding cache reads and cache writes). */
  readonly inputTokens: number;
  /** Output tokens. */
  readonly outputTokens: number;
  /** Input tokens read from the cache. */
  readonly cacheReadTokens?: number;
  /** Input tokens written to the cache. */
  readonly cacheWriteTokens?: number;
}

type CatalogRow = readonly [string, string, number, number, number, number, number | null, number | null];

let index: Map<string, CatalogEntry> | undefined;

function catalogIndex(): Map<string, CatalogEntry> {
  if (index !== undefined) return index;
  index = new Map();
  for (const row of catalogFile.models as unknown as readonly CatalogRow[]) {
    const [provider, modelId, input, output, cacheRead, cacheWrite, contextWindow, maxOutputTokens] = row;
    const model = `${provider}/${modelId}`;
    index.set(model, {
      provider,
      modelId,
      model,
      price: { input, output, cacheRead, cacheWrite },
      contextWindow,
      maxOutputTokens,
    });
  }
  return index;
}

/** Every model of the committed catalog, sorted by provider then model id. For `snodo models`. */
export function listCatalog(): readonly CatalogEntry[] {
  return [...catalogIndex().values()];
}

/** Where the committed catalog comes from and how many models it has. */
export function priceCatalogInfo(): PriceCatalogInfo {
  return {
    generatedAt: catalogFile.generatedAt,
    source: catalogFile.source,
    attribution: catalogFile.attribution,
    modelCount: catalogIndex().size,
  };
}

/** A date suffix a provider appends to a model id: `-20250929`, `-2024-08-06`, `@20250929`. */
const DATE_SUFFIX = /[-@](\d{8}|\d{4}-\d{2}-\d{2})$/;

/**
 * The names under which a model may be priced, most specific first: the exact `provider/id`; the id
 * without a date suffix (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`); for a proxy that passes a
 * nested model string on (`litellm/anthropic/claude-…`, `litellm/gpt-4o`) the nested model's names.
 */
function candidateNames(parsed: ParsedModelString, depth = 0): string[] {
  const names = [formatModelString(parsed)];
  const undated = parsed.modelId.replace(DATE_SUFFIX, '');
  if (undated !== parsed.modelId)
    names.push(formatModelString({ provider: parsed.provider, modelId: undated }));
  if (depth > 0) return names;
  let nested: ParsedModelString | undefined;
  try {
    nested = parseModelString(parsed.modelId);
  } catch {
    nested = undefined;
  }
  if (nested !== undefined) names.push(...candidateNames(nested, depth + 1));
  return names;
}

/**
 * Finds the price of a model: a config override (keyed by `provider/model` or the bare model id) over the
 * committed catalog. Accepts `provider/model`, bare names (`claude-sonnet-4-5`), date-suffixed ids, and
 * proxy strings whose model id is itself a model string. Returns `null` when nothing matches, so the cost
 * stays unknown instead of guessed.
 */
export function lookupPrice(
  model: string | ParsedModelString,
  overrides?: PriceOverrides,
): PriceLookup | null {
  let parsed: ParsedModelString;
  try {
    parsed = typeof model === 'string' ? parseModelString(model) : model;
  } catch {
    return null;
  }
  const names = candidateNames(parsed);
  const catalog = catalogIndex();
  const found = names.map((name) => catalog.get(name)).find((entry) => entry !== undefined);
  const overrideKey = findOverrideKey(names, parsed, overrides);
  if (overrideKey === undefined) {
    return found === undefined ? null : { model: found.model, price: found.price, source: 'catalog' };
  }
  const override = overrides?.[overrideKey] ?? {};
  const input = override.input ?? found?.price.input;
  const output = override.output ?? found?.price.output;
  if (input === undefined || output === undefined) {
    return found === undefined ? null : { model: found.model, price: found.price, source: 'catalog' };
  }
  return {
    model: overrideKey,
    price: {
      input,
      output,
      cacheRead: override.cache_read ?? found?.price.cacheRead ?? input,
      cacheWrite: override.cache_write ?? found?.price.cacheWrite ?? input,
    },
    source: 'config',
  };
}

function findOverrideKey(
  names: readonly string[],
  parsed: ParsedModelString,
  overrides: PriceOverrides | undefined,
): string | undefined {
  if (overrides === undefined) return undefined;
  const keys = [...names, parsed.modelId, parsed.modelId.replace(DATE_SUFFIX, '')];
  return keys.find((key) => Object.hasOwn(overrides, key));
}

/** The cost in US dollars of `tokens` at `price` (per million tokens). */
export function computeCostUsd(tokens: TokenCounts, price: ModelPrice): number {
  const microDollars =
    tokens.inputTokens * price.input +
    tokens.outputTokens * price.output +
    (tokens.cacheReadTokens ?? 0) * price.cacheRead +
    (tokens.cacheWriteTokens ?? 0) * price.cacheWrite;
  return microDollars / 1_000_000;
}
