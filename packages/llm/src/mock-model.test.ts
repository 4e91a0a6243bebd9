import { generateText, Output, streamText } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateStructured } from './generate-structured.js';
import { generateVerdict } from './generate-verdict.js';
import { createMockModel, mockJustification } from './mock-model.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('mock judging models', () => {
  it.each(['pass', 'warn', 'blocker'] as const)(
    'mock/%s answers with its severity, offline, for free',
    async (severity) => {
      const fetchSpy = vi.spyOn(globalThis, 'fetch');
      const failingFetch = () => Promise.reject(new Error('the mock must not call the network'));
      const result = await generateVerdict({
        model: `mock/${severity}`,
        system: 'You are a security judge.',
        prompt: 'Task: anything',
        settings: { env: {}, fetch: failingFetch },
      });
      expect(result.verdict).toEqual({ severity, justification: mockJustification(severity), findings: [] });
      expect(result).toMatchObject({ model: `mock/${severity}`, repaired: false });
      expect(result.usage).toEqual({
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 0,
        costUsd: 0,
        source: 'reported',
      });
      expect(fetchSpy).not.toHaveBeenCalled();
    },
  );

  it('answers the same way every time', async () => {
    const first = await generateVerdict({ model: 'mock/warn', prompt: 'a', settings: { env: {} } });
    const second = await generateVerdict({
      model: 'mock/warn',
      prompt: 'something else',
      settings: { env: {} },
    });
    expect(second.text).toBe(first.text);
  });

  it('fills any other structured request with the smallest valid object', async () => {
    const classification = z.object({
      mode: z.enum(['implement', 'review']),
      flow_type: z.enum(['feature', 'defect', 'debt', 'risk']),
      confidence: z.number(),
      reasons: z.array(z.string()),
      summary: z.string(),
      severity: z.enum(['pass', 'warn', 'blocker']).nullable(),
    });
    const result = await generateStructured({
      model: 'mock/blocker',
      schema: classification,
      prompt: 'Classify: add rate limiting',
      settings: { env: {} },
    });
    expect(result.object).toEqual({
      mode: 'implement',
      flow_type: 'feature',
      confidence: 0,
      reasons: [],
      summary: 'mock',
      severity: 'blocker',
    });
  });

  it('speaks the v3 model interface to generateText and streamText', async () => {
    const model = createMockModel('pass');
    expect(model.specificationVersion).toBe('v3');
    const generated = await generateText({
      model,
      output: Output.object({ schema: z.object({ severity: z.string(), justification: z.string() }) }),
      prompt: 'judge',
    });
    expect(generated.output).toEqual({ severity: 'pass', justification: mockJustification('pass') });

    const streamed = streamText({ model, prompt: 'judge' });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(JSON.parse(text)).toMatchObject({ severity: 'pass', findings: [] });
    expect((await streamed.usage).outputTokens).toBe(0);
  });
});
