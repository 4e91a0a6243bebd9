import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LlmOutputInvalidError } from './errors.js';
import { generateStructured } from './generate-structured.js';
import { resolveModel } from './resolve-model.js';
import { type FakeLlmServer, startFakeLlmServer } from './testing/fake-llm-server.js';

let server: FakeLlmServer;

beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

const classification = z.object({ mode: z.enum(['implement', 'review']), flow_type: z.string() });

describe('generateStructured', () => {
  it('returns a validated object from a model resolved ahead of time', async () => {
    const model = await resolveModel('vllm/qwen', {
      env: {},
      providers: { vllm: { base_url: `${server.origin}/v1` } },
    });
    server.enqueue({ text: JSON.stringify({ mode: 'review', flow_type: 'defect' }) });
    const result = await generateStructured({
      model,
      schema: classification,
      prompt: 'classify',
      maxRetries: 0,
    });
    expect(result).toMatchObject({
      object: { mode: 'review', flow_type: 'defect' },
      repaired: false,
      model: 'vllm/qwen',
    });
    const format = server.requests[0]!.body.response_format as {
      json_schema: { strict: boolean; schema: object };
    };
    expect(format.json_schema.schema).toMatchObject({
      additionalProperties: false,
      required: ['mode', 'flow_type'],
    });
  });

  it('throws LLM_OUTPUT_INVALID, not VERDICT_INVALID, after two invalid answers', async () => {
    server.enqueue(
      { text: '{"mode": "deploy", "flow_type": "x"}' },
      { text: '{"mode": "ship", "flow_type": "x"}' },
    );
    const failure = generateStructured({
      model: 'vllm/qwen',
      schema: classification,
      prompt: 'classify',
      maxRetries: 0,
      settings: { env: {}, providers: { vllm: { base_url: `${server.origin}/v1` } } },
    });
    await expect(failure).rejects.toSatisfy(LlmOutputInvalidError.isInstance);
    await expect(failure).rejects.toThrow(/vllm\/qwen did not answer with a valid object.*mode:/);
  });
});
