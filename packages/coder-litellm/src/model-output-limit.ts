import { listCatalog, lookupPrice, type PriceOverrides } from '@snodo/llm';
import { DEFAULT_MAX_OUTPUT_TOKENS } from './litellm-coder-settings.js';

/**
 * The output token limit for a model when config sets none: 16000 (the Python original's default), or
 * the model's own maximum from the price catalog when that is lower, so a model with an 8192-token limit
 * is not sent a request its provider rejects.
 */
export function defaultMaxOutputTokens(modelString: string, prices?: PriceOverrides): number {
  const found = lookupPrice(modelString, prices);
  if (found === null) return DEFAULT_MAX_OUTPUT_TOKENS;
  const entry = listCatalog().find((candidate) => candidate.model === found.model);
  const limit = entry?.maxOutputTokens;
  return typeof limit === 'number' && limit > 0
    ? Math.min(limit, DEFAULT_MAX_OUTPUT_TOKENS)
    : DEFAULT_MAX_OUTPUT_TOKENS;
}
