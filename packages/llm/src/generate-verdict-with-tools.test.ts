import { describe, expect, it } from 'vitest';
import { generateVerdictWithTools, type VerdictTool } from './generate-verdict-with-tools.js';

// The loop over real HTTP, with tool calls in each provider's wire format, is tested where the tools live
// (core's judges/judge-tools/judge-tool-loop.test.ts, against the conformance kit's fake LLM).

const readFile: VerdictTool = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: async () => 'never called by the mock',
};

describe('generateVerdictWithTools', () => {
  it('returns a verdict from a model that answers at once, in one turn that costs what the mock costs', async () => {
    const result = await generateVerdictWithTools({ model: 'mock/warn', prompt: 'judge', tools: [readFile] });
    expect(result.verdict.severity).toBe('warn');
    expect(result).toMatchObject({ model: 'mock/warn', repaired: false, turns: 1 });
    expect(result.usage).toMatchObject({ costUsd: 0, source: 'reported' });
  });

  it('refuses a turn budget that is not a whole number of at least one, and a loop without tools', async () => {
    await expect(
      generateVerdictWithTools({ model: 'mock/pass', prompt: 'judge', tools: [readFile], maxTurns: 0 }),
    ).rejects.toThrow(/maxTurns must be a whole number ≥ 1/);
    await expect(
      generateVerdictWithTools({ model: 'mock/pass', prompt: 'judge', tools: [] }),
    ).rejects.toThrow(/at least one tool/);
  });
});
