import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeDialectWithAiSdk } from './describe-dialect-with-ai-sdk.js';
import { type FakeLlm, startFakeLlm } from './fake-llm-server.js';

describeDialectWithAiSdk('Gemini through @ai-sdk/google', {
  dialect: 'gemini',
  path: /^\/v1beta\/models\/gemini-2\.5-flash:(generateContent|streamGenerateContent)$/,
  createModel: (fake, apiKey) =>
    createGoogleGenerativeAI({ baseURL: fake.sdkBaseUrl.gemini, apiKey })('gemini-2.5-flash'),
});

describe('Gemini wire details (Gemini CLI shapes)', () => {
  let fake: FakeLlm;
  beforeEach(async () => {
    fake = await startFakeLlm();
  });
  afterEach(() => fake.close());

  async function post(operation: string, body: Record<string, unknown>): Promise<Response> {
    return fetch(`${fake.baseUrl.gemini}/v1beta/models/gemini-3-pro-preview:${operation}`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'gemini-key', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  const geminiCliTools = [
    {
      functionDeclarations: [
        {
          name: 'run_shell_command',
          parametersJsonSchema: {
            type: 'object',
            properties: { command: { type: 'string' } },
            required: ['command'],
          },
        },
        {
          name: 'write_file',
          parametersJsonSchema: {
            type: 'object',
            properties: { file_path: { type: 'string' }, content: { type: 'string' } },
            required: ['file_path', 'content'],
          },
        },
      ],
    },
  ];

  it('streams a write_file functionCall over alt=sse with usageMetadata on the last chunk', async () => {
    fake.script.push({
      writeFile: { path: 'a.txt', content: 'A' },
      usage: { input: 90, output: 7, cached: 10 },
    });
    const response = await fetch(
      `${fake.baseUrl.gemini}/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse`,
      {
        method: 'POST',
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'Write a.txt' }] }],
          tools: geminiCliTools,
        }),
      },
    );
    const chunks = (await response.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'write_file', args: { file_path: 'a.txt', content: 'A' } } }],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: {
        promptTokenCount: 90,
        candidatesTokenCount: 7,
        cachedContentTokenCount: 10,
        totalTokenCount: 97,
      },
    });
    expect(fake.lastRequest()).toMatchObject({
      model: 'gemini-3-pro-preview',
      stream: true,
      query: { alt: 'sse' },
    });
  });

  it('answers streamGenerateContent without alt=sse as a JSON array', async () => {
    fake.script.push('array answer');
    const response = await post('streamGenerateContent', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    const chunks = (await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] }[];
    expect(chunks.map((chunk) => chunk.candidates[0]?.content.parts[0]?.text).join('')).toBe('array answer');
  });

  it('answers the router, next-speaker and loop checks from their schemas without consuming the script', async () => {
    fake.script.push('main');
    const ask = async (schema: Record<string, unknown>) => {
      const response = await post('generateContent', {
        contents: [{ role: 'user', parts: [{ text: 'Add a test' }] }],
        generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
      });
      const body = (await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
      return JSON.parse(body.candidates[0]?.content.parts[0]?.text ?? 'null') as unknown;
    };
    expect(
      await ask({
        type: 'OBJECT',
        properties: {
          reasoning: { type: 'STRING' },
          model_choice: { type: 'STRING', enum: ['flash', 'pro'] },
        },
      }),
    ).toEqual({ reasoning: 'fake-llm', model_choice: 'pro' });
    expect(
      await ask({
        type: 'object',
        properties: {
          complexity_reasoning: { type: 'string' },
          complexity_score: { type: 'integer', minimum: 1, maximum: 100 },
        },
      }),
    ).toEqual({ complexity_reasoning: 'fake-llm', complexity_score: 100 });
    expect(
      await ask({
        type: 'object',
        properties: { next_speaker: { type: 'string', enum: ['model', 'user'] } },
      }),
    ).toEqual({
      next_speaker: 'user',
    });
    expect(
      await ask({ type: 'object', properties: { unproductive_state_confidence: { type: 'number' } } }),
    ).toEqual({
      unproductive_state_confidence: 0,
    });
    const count = await post('countTokens', { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(await count.json()).toEqual({ totalTokens: 100 });
    expect(fake.sideRequests().map((entry) => entry.sideRule)).toEqual([
      'routing-check',
      'routing-check',
      'routing-check',
      'routing-check',
      'count-tokens',
    ]);
    expect(fake.script.remaining).toBe(1);
  });
});
