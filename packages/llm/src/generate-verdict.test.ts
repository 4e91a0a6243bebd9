import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LlmCallFailedError } from './errors/llm-call-failed-error.js';
import { LlmError } from './errors/llm-error.js';
import { VerdictInvalidError } from './errors/verdict-invalid-error.js';
import { LlmCallAbortedError } from './errors.js';
import { generateVerdict } from './generate-verdict.js';
import type { LlmSettings } from './llm-settings.js';
import { lookupPrice } from './price-catalog.js';
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

const warnVerdict = JSON.stringify({
  severity: 'warn',
  justification: 'The new route has no rate limit test.',
  findings: [{ message: 'No test covers the limit', file: 'src/login.ts', line: 12, severity: 'warn' }],
});

function compatible(): LlmSettings {
  return { env: {}, providers: { litellm: { base_url: `${server.origin}/v1`, api_key: 'sk-proxy' } } };
}

function anthropic(): LlmSettings {
  return {
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    providers: { anthropic: { base_url: `${server.origin}/v1` } },
  };
}

describe('generateVerdict over OpenAI-compatible chat completions', () => {
  it('returns the verdict, sends the schema and the key, and reports usage', async () => {
    server.enqueue({ text: warnVerdict, usage: { input: 1200, output: 80, cacheRead: 200 } });
    const result = await generateVerdict({
      model: 'litellm/my-judge',
      system: 'You review changes for security.',
      prompt: 'Task: add rate limiting. Diff: …',
      maxRetries: 0,
      settings: compatible(),
    });

    expect(result.verdict).toEqual({
      severity: 'warn',
      justification: 'The new route has no rate limit test.',
      findings: [{ message: 'No test covers the limit', file: 'src/login.ts', line: 12, severity: 'warn' }],
    });
    expect(result).toMatchObject({ model: 'litellm/my-judge', repaired: false });
    expect(result.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 80,
      cachedInputTokens: 200,
      costUsd: null,
      source: 'estimated',
    });

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-proxy');
    const format = request.body.response_format as { type: string; json_schema: { schema: unknown } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.schema).toMatchObject({ required: ['severity', 'justification', 'findings'] });
    expect(JSON.stringify(request.body.messages)).toContain('You review changes for security.');
  });

  it('prices a proxied model by the model behind it, and takes a proxy-reported cost over the catalog', async () => {
    server.enqueue({ text: warnVerdict, usage: { input: 1_000_000, output: 0 } });
    const estimated = await generateVerdict({
      model: 'litellm/gpt-4o',
      prompt: 'judge',
      maxRetries: 0,
      settings: compatible(),
    });
    expect(estimated.usage.costUsd).toBe(lookupPrice('openai/gpt-4o')!.price.input);

    server.enqueue({ text: warnVerdict, headers: { 'x-litellm-response-cost': '0.0042' } });
    const reported = await generateVerdict({
      model: 'litellm/gpt-4o',
      prompt: 'judge',
      maxRetries: 0,
      settings: compatible(),
    });
    expect(reported.usage).toMatchObject({ costUsd: 0.0042, source: 'reported' });
  });

  it('keeps the cost OpenRouter reports in its usage', async () => {
    server.enqueue({ text: warnVerdict, usage: { input: 100, output: 10, cost: 0.000321 } });
    const result = await generateVerdict({
      model: 'openrouter/anthropic/claude-sonnet-4.5',
      prompt: 'judge',
      maxRetries: 0,
      settings: {
        env: { OPENROUTER_API_KEY: 'or-key' },
        providers: { openrouter: { base_url: `${server.origin}/v1` } },
      },
    });
    expect(result.usage).toMatchObject({ inputTokens: 100, costUsd: 0.000321, source: 'reported' });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer or-key');
  });

  it('accepts a verdict without findings or finding fields', async () => {
    server.enqueue({ text: JSON.stringify({ severity: 'pass', justification: 'Fine.' }) });
    const result = await generateVerdict({
      model: 'litellm/j',
      prompt: 'judge',
      maxRetries: 0,
      settings: compatible(),
    });
    expect(result.verdict).toEqual({ severity: 'pass', justification: 'Fine.', findings: [] });
    expect(result.repaired).toBe(false);
  });
});

describe('generateVerdict over Anthropic messages through a base_url', () => {
  it('returns the verdict and prices it from the catalog', async () => {
    server.enqueue({ text: warnVerdict, usage: { input: 1000, output: 500 } });
    const result = await generateVerdict({
      model: 'anthropic/claude-sonnet-4-5',
      prompt: 'judge this diff',
      maxRetries: 0,
      settings: anthropic(),
    });
    expect(result.verdict.severity).toBe('warn');
    const price = lookupPrice('anthropic/claude-sonnet-4-5')!.price;
    expect(result.usage).toEqual({
      inputTokens: 1000,
      outputTokens: 500,
      cachedInputTokens: 0,
      costUsd: (1000 * price.input + 500 * price.output) / 1_000_000,
      source: 'estimated',
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant-test');
    expect(request.body.output_config).toBeDefined();
  });

  it('prices cache reads and writes at their own prices', async () => {
    server.enqueue({
      text: warnVerdict,
      usage: { input: 100, output: 10, cacheRead: 5000, cacheWrite: 300 },
    });
    const result = await generateVerdict({
      model: 'claude-sonnet-4-5-20250929',
      prompt: 'judge',
      maxRetries: 0,
      settings: anthropic(),
    });
    const price = lookupPrice('anthropic/claude-sonnet-4-5')!.price;
    expect(result.usage).toMatchObject({ inputTokens: 400, outputTokens: 10, cachedInputTokens: 5000 });
    expect(result.usage.costUsd).toBeCloseTo(
      (100 * price.input + 10 * price.output + 5000 * price.cacheRead + 300 * price.cacheWrite) / 1_000_000,
      12,
    );
  });
});

describe('generateVerdict through the OpenAI client with a base_url', () => {
  it('uses Chat Completions with the configured key', async () => {
    server.enqueue({ text: warnVerdict });
    const result = await generateVerdict({
      model: 'gpt-4o',
      prompt: 'judge',
      maxRetries: 0,
      settings: {
        env: { OPENAI_API_KEY: 'sk-env' },
        providers: { openai: { base_url: `${server.origin}/v1`, api_key: 'sk-config' } },
      },
    });
    expect(result.verdict.severity).toBe('warn');
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-config');
  });
});

describe('generateVerdict with an older Anthropic model', () => {
  it('gets the verdict through the forced json tool', async () => {
    server.enqueue({ text: warnVerdict });
    const result = await generateVerdict({
      model: 'anthropic/claude-3-haiku-20240307',
      prompt: 'judge',
      maxRetries: 0,
      settings: anthropic(),
    });
    expect(result.verdict.findings).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.body.output_config).toBeUndefined();
    expect(request.body.tools).toEqual([expect.objectContaining({ name: 'json' })]);
  });
});

describe('generateVerdict through the Google client with a base_url', () => {
  it('returns the verdict', async () => {
    server.enqueue({ text: warnVerdict });
    const result = await generateVerdict({
      model: 'gemini/gemini-2.5-flash',
      prompt: 'judge',
      maxRetries: 0,
      settings: {
        env: { GEMINI_API_KEY: 'gk' },
        providers: { google: { base_url: `${server.origin}/v1beta` } },
      },
    });
    expect(result.verdict.severity).toBe('warn');
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('gk');
  });
});

describe('the repair attempt', () => {
  it('repairs an answer that is not JSON, once, and shows the model what it said', async () => {
    server.enqueue(
      { text: 'Looks fine to me!', usage: { input: 100, output: 5 } },
      {
        text: JSON.stringify({ severity: 'pass', justification: 'ok', findings: [] }),
        usage: { input: 150, output: 20 },
      },
    );
    const result = await generateVerdict({
      model: 'litellm/j',
      prompt: 'judge',
      maxRetries: 0,
      settings: compatible(),
    });
    expect(result.verdict.severity).toBe('pass');
    expect(result.repaired).toBe(true);
    expect(result.usage).toMatchObject({ inputTokens: 250, outputTokens: 25 });

    expect(server.requests).toHaveLength(2);
    const messages = server.requests[1]!.body.messages as { role: string; content: string }[];
    expect(messages.at(-2)).toMatchObject({ role: 'assistant', content: 'Looks fine to me!' });
    expect(messages.at(-1)!.role).toBe('user');
    expect(messages.at(-1)!.content).toContain('not valid JSON');
  });

  it('repairs an answer that breaks the schema and names the field', async () => {
    server.enqueue(
      { text: JSON.stringify({ severity: 'critical', justification: 'bad' }) },
      { text: JSON.stringify({ severity: 'blocker', justification: 'bad' }) },
    );
    const result = await generateVerdict({
      model: 'litellm/j',
      prompt: 'judge',
      maxRetries: 0,
      settings: compatible(),
    });
    expect(result).toMatchObject({ repaired: true, verdict: { severity: 'blocker' } });
    const messages = server.requests[1]!.body.messages as { content: string }[];
    expect(messages.at(-1)!.content).toMatch(/does not match the schema \(severity:/);
  });

  it('throws VERDICT_INVALID after two invalid answers, with the last answer and both calls counted', async () => {
    server.enqueue(
      { text: 'no idea', usage: { input: 10, output: 2 } },
      { text: '{"severity":', usage: { input: 20, output: 3 } },
    );
    const failure = generateVerdict({
      model: 'litellm/j',
      prompt: 'judge',
      maxRetries: 0,
      settings: compatible(),
    });
    await expect(failure).rejects.toSatisfy(VerdictInvalidError.isInstance);
    const error = (await failure.catch((caught: unknown) => caught)) as VerdictInvalidError;
    expect(error.code).toBe('VERDICT_INVALID');
    expect(error.text).toBe('{"severity":');
    expect(error.usage).toMatchObject({ inputTokens: 30, outputTokens: 5 });
    expect(error.message).toContain('litellm/j did not return a valid verdict');
    expect(server.requests).toHaveLength(2);
  });
});

describe('failures are errors, never verdicts', () => {
  it('turns a 500 into LLM_CALL_FAILED with provider, model and status', async () => {
    server.enqueue({ status: 500, body: { error: { message: 'upstream exploded' } } });
    const failure = generateVerdict({
      model: 'litellm/j',
      prompt: 'judge',
      maxRetries: 0,
      settings: compatible(),
    });
    const error = (await failure.catch((caught: unknown) => caught)) as LlmCallFailedError;
    expect(LlmCallFailedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'LLM_CALL_FAILED',
      provider: 'litellm',
      modelId: 'j',
      statusCode: 500,
    });
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('upstream exploded');
    expect(error.cause).toBeDefined();
    expect(server.requests).toHaveLength(1);
  });

  it('points a 401 at snodo config add', async () => {
    server.enqueue({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    });
    const failure = generateVerdict({
      model: 'claude-sonnet-4-5',
      prompt: 'judge',
      maxRetries: 0,
      settings: anthropic(),
    });
    await expect(failure).rejects.toThrow(/HTTP 401.*snodo config add anthropic <key>/);
  });

  it('reports an unreachable endpoint without a status', async () => {
    const closed = await startFakeLlmServer();
    await closed.close();
    const settings = { env: {}, providers: { local: { base_url: `${closed.origin}/v1` } } };
    const error = (await generateVerdict({
      model: 'local/m',
      prompt: 'judge',
      maxRetries: 0,
      settings,
    }).catch((caught: unknown) => caught)) as LlmCallFailedError;
    expect(LlmCallFailedError.isInstance(error)).toBe(true);
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toContain(`Check that ${closed.origin} is reachable`);
  });

  it('reports an abort as LLM_CALL_ABORTED', async () => {
    const controller = new AbortController();
    controller.abort();
    server.enqueue({ text: warnVerdict });
    const failure = generateVerdict({
      model: 'litellm/j',
      prompt: 'judge',
      maxRetries: 0,
      abortSignal: controller.signal,
      settings: compatible(),
    });
    await expect(failure).rejects.toSatisfy(LlmCallAbortedError.isInstance);
    await expect(failure).rejects.toSatisfy(LlmError.isInstance);
    expect(server.requests).toHaveLength(0);
  });
});
