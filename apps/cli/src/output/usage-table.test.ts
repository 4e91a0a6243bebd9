import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { usageTable } from './run-summary.js';

const palette = picocolors.createColors(false);
const role = {
  outputTokens: 80,
  source: 'estimated' as const,
  calls: 4,
  models: ['anthropic/claude-sonnet-4-5'],
};

describe('usageTable (snodo meta, task show, the run summary)', () => {
  it('shows cache reads and writes per role and in the total when a role used the prompt cache', () => {
    const table = usageTable(
      {
        judges: {
          ...role,
          inputTokens: 6_200,
          cachedInputTokens: 17_400,
          cacheWriteTokens: 5_800,
          costUsd: 0.05,
        },
        coder: { ...role, inputTokens: 1_000, cachedInputTokens: 0, costUsd: 0.01 },
      },
      palette,
    );
    const lines = table?.split('\n') ?? [];
    expect(lines[0]).toContain('cache read / written');
    expect(lines.find((line) => line.includes('judges'))).toContain('17,400 / 5,800');
    expect(lines.find((line) => line.includes('coder'))).toContain('0 / 0');
    expect(lines.find((line) => line.includes('total'))).toContain('17,400 / 5,800');
  });

  it('keeps the plain table when nothing was cached', () => {
    const table = usageTable(
      { judges: { ...role, inputTokens: 100, cachedInputTokens: 0, costUsd: 0 } },
      palette,
    );
    expect(table).not.toContain('cache');
  });
});
