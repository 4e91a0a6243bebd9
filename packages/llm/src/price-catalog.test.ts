import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeUsage, sumUsage } from './llm-usage.js';
import { computeCostUsd, listCatalog, lookupPrice, priceCatalogInfo } from './price-catalog.js';

describe('the committed price catalog', () => {
  it('says where it comes from and stays small', () => {
    const info = priceCatalogInfo();
    expect(info.generatedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(info.source).toContain('@mariozechner/pi-ai');
    expect(info.attribution).toMatch(/models\.dev.*MIT.*pi-mono/);
    expect(info.modelCount).toBe(listCatalog().length);
    expect(statSync(new URL('./price-catalog.json', import.meta.url)).size).toBeLessThan(300_000);
  });

  it('covers the providers snodo users reach most', () => {
    const providers = new Set(listCatalog().map((entry) => entry.provider));
    for (const provider of [
      'anthropic',
      'openai',
      'google',
      'openrouter',
      'deepseek',
      'groq',
      'mistral',
      'xai',
    ]) {
      expect(providers, provider).toContain(provider);
    }
  });

  it('lists entries sorted by provider and model id with sane prices', () => {
    const keys = listCatalog().map((entry) => `${entry.provider}\u0000${entry.modelId}`);
    expect(keys).toEqual([...keys].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0)));
    for (const entry of listCatalog()) {
      expect(entry.price.input, entry.model).toBeGreaterThanOrEqual(0);
      expect(entry.price.output, entry.model).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('lookupPrice', () => {
  const sonnet = listCatalog().find((entry) => entry.model === 'anthropic/claude-sonnet-4-5')!;

  it('finds a model by provider/model, bare name, and date-suffixed id', () => {
    expect(sonnet.price.input).toBeGreaterThan(0);
    expect(lookupPrice('anthropic/claude-sonnet-4-5')).toEqual({
      model: 'anthropic/claude-sonnet-4-5',
      price: sonnet.price,
      source: 'catalog',
    });
    expect(lookupPrice('claude-sonnet-4-5')?.price).toEqual(sonnet.price);
    expect(lookupPrice('anthropic/claude-sonnet-4-5@20990101')?.price).toEqual(sonnet.price);
    expect(lookupPrice('claude-opus-4-6-20991231')?.model).toBe('anthropic/claude-opus-4-6');
  });

  it('finds models behind proxies and aliases', () => {
    expect(lookupPrice('litellm/gpt-4o')?.model).toBe('openai/gpt-4o');
    expect(lookupPrice('litellm/anthropic/claude-sonnet-4-5')?.model).toBe('anthropic/claude-sonnet-4-5');
    expect(lookupPrice('gemini/gemini-2.5-pro')?.model).toBe('google/gemini-2.5-pro');
    const openrouterEntry = listCatalog().find((entry) => entry.provider === 'openrouter')!;
    expect(lookupPrice(openrouterEntry.model)?.model).toBe(openrouterEntry.model);
  });

  it('returns null for a model it does not know, and for an unreadable string', () => {
    expect(lookupPrice('vllm/my-finetune')).toBeNull();
    expect(lookupPrice('llama3')).toBeNull();
  });

  it('lets config override prices, wholly or in part', () => {
    const partial = lookupPrice('anthropic/claude-sonnet-4-5', { 'claude-sonnet-4-5': { input: 1 } });
    expect(partial).toEqual({
      model: 'claude-sonnet-4-5',
      price: { ...sonnet.price, input: 1 },
      source: 'config',
    });
    const unknown = lookupPrice('vllm/my-finetune', { 'vllm/my-finetune': { input: 0.5, output: 1.5 } });
    expect(unknown?.price).toEqual({ input: 0.5, output: 1.5, cacheRead: 0.5, cacheWrite: 0.5 });
    expect(lookupPrice('vllm/my-finetune', { 'vllm/my-finetune': { input: 0.5 } })).toBeNull();
  });
});

describe('cost arithmetic', () => {
  const gpt4o = lookupPrice('openai/gpt-4o')!.price;

  it('prices a million input tokens at the listed input price', () => {
    expect(computeCostUsd({ inputTokens: 1_000_000, outputTokens: 0 }, gpt4o)).toBe(gpt4o.input);
    expect(computeCostUsd({ inputTokens: 0, outputTokens: 1_000_000 }, gpt4o)).toBe(gpt4o.output);
  });

  it('prices cached input tokens at the cache-read price', () => {
    const usage = normalizeUsage(
      {
        inputTokens: 1_000_000,
        inputTokenDetails: { noCacheTokens: 0, cacheReadTokens: 1_000_000, cacheWriteTokens: 0 },
        outputTokens: 0,
        outputTokenDetails: { textTokens: 0, reasoningTokens: 0 },
        totalTokens: 1_000_000,
      },
      { model: 'openai/gpt-4o' },
    );
    expect(usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 1_000_000,
      costUsd: gpt4o.cacheRead,
      source: 'estimated',
    });
    expect(gpt4o.cacheRead).toBeLessThan(gpt4o.input);
  });

  it('derives uncached tokens when a provider reports only the total', () => {
    const usage = normalizeUsage(
      {
        inputTokens: 1000,
        inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: 400, cacheWriteTokens: undefined },
        outputTokens: 10,
        outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
        totalTokens: 1010,
      },
      { model: 'gpt-4o', prices: { 'gpt-4o': { input: 1, output: 2, cache_read: 0.5 } } },
    );
    expect(usage).toMatchObject({ inputTokens: 600, cachedInputTokens: 400 });
    expect(usage.costUsd).toBeCloseTo((600 * 1 + 10 * 2 + 400 * 0.5) / 1_000_000, 12);
  });

  it('leaves the cost unknown without a price, and keeps a reported cost', () => {
    expect(normalizeUsage(undefined, { model: 'vllm/x' })).toMatchObject({
      costUsd: null,
      source: 'estimated',
    });
    const reported = normalizeUsage(
      {
        inputTokens: 5,
        inputTokenDetails: { noCacheTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
        outputTokens: 1,
        outputTokenDetails: { textTokens: 1, reasoningTokens: 0 },
        totalTokens: 6,
        raw: { cost: 0.00123 },
      },
      { model: 'openrouter/some/model' },
    );
    expect(reported).toMatchObject({ costUsd: 0.00123, source: 'reported' });
  });

  it('sums usages, and an unknown cost makes the sum unknown', () => {
    const known = {
      inputTokens: 1,
      outputTokens: 2,
      cachedInputTokens: 3,
      costUsd: 0.5,
      source: 'reported' as const,
    };
    const estimated = { ...known, costUsd: 0.25, source: 'estimated' as const };
    expect(sumUsage([known, estimated])).toEqual({
      inputTokens: 2,
      outputTokens: 4,
      cachedInputTokens: 6,
      costUsd: 0.75,
      source: 'estimated',
    });
    expect(sumUsage([known, { ...known, costUsd: null }]).costUsd).toBeNull();
  });
});
