import { lookupPrice } from '@snodo/llm';
import { describe, expect, it } from 'vitest';
import { UsageLedger } from './usage-ledger.js';

const model = 'anthropic/claude-sonnet-4-5';

describe('UsageLedger and prompt-cache tokens', () => {
  it('sums cache reads and writes per role and prices an unpriced report with the cache prices', () => {
    const price = lookupPrice(model)?.price;
    if (!price) throw new Error(`no catalog price for ${model}`);
    const ledger = new UsageLedger();
    // inputTokens counts the cache write (as @snodo/llm reports it); reads are apart.
    ledger.add('judges', {
      inputTokens: 5_100,
      cacheWriteTokens: 5_000,
      cachedInputTokens: 0,
      outputTokens: 20,
      costUsd: null,
      source: 'estimated',
      model,
    });
    const usage = ledger.add('judges', {
      inputTokens: 100,
      cachedInputTokens: 5_000,
      outputTokens: 20,
      costUsd: null,
      source: 'estimated',
      model,
    });
    expect(usage).toMatchObject({
      inputTokens: 5_200,
      cachedInputTokens: 5_000,
      cacheWriteTokens: 5_000,
      calls: 2,
    });
    const expected =
      (200 * price.input + 5_000 * price.cacheWrite + 5_000 * price.cacheRead + 40 * price.output) /
      1_000_000;
    expect(usage.costUsd).toBeCloseTo(expected, 12);
    // Writes cost more than plain input and reads less, so the split is what makes the figure right.
    expect(price.cacheWrite).toBeGreaterThan(price.input);
    expect(price.cacheRead).toBeLessThan(price.input);
  });

  it('leaves cacheWriteTokens out of a role that never wrote to a cache', () => {
    const ledger = new UsageLedger();
    const usage = ledger.add('coder', {
      inputTokens: 10,
      cachedInputTokens: 4,
      outputTokens: 2,
      costUsd: 0.001,
      source: 'reported',
    });
    expect(usage).not.toHaveProperty('cacheWriteTokens');
    expect(ledger.snapshot().coder).toEqual(usage);
  });
});
