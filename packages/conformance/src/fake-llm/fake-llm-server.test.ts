import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeLlmScriptError } from './fake-llm-script-error.js';
import { type FakeLlm, type FakeLlmOptions, startFakeLlm } from './fake-llm-server.js';

const running: FakeLlm[] = [];
async function start(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const fake = await startFakeLlm(options);
  running.push(fake);
  return fake;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((fake) => fake.close()));
});

function chatBody(content: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model: 'm', messages: [{ role: 'user', content }], ...extra });
}

async function chat(fake: FakeLlm, content: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${fake.baseUrl.openai}/chat/completions`, { method: 'POST', body: chatBody(content, extra) });
}

async function chatText(fake: FakeLlm, content: string): Promise<string> {
  const body = (await (await chat(fake, content)).json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]?.message.content ?? '';
}

/** Resolves once `condition` holds, checking every few milliseconds (the test's own timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('startFakeLlm', () => {
  it('listens on 127.0.0.1 with a random port and exposes the base URLs', async () => {
    const fake = await start();
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fake.baseUrl).toEqual({ openai: `${fake.url}/v1`, anthropic: fake.url, gemini: fake.url });
    expect(fake.sdkBaseUrl).toEqual({
      openai: `${fake.url}/v1`,
      anthropic: `${fake.url}/v1`,
      gemini: `${fake.url}/v1beta`,
    });
  });

  it('rejects an invalid script before serving anything, with a typed error', async () => {
    const failure = await startFakeLlm({ script: ['ok', { txt: 'typo' } as never] }).catch(
      (error: unknown) => error,
    );
    expect(FakeLlmScriptError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'FAKE_LLM_SCRIPT_INVALID', turnIndex: 1 });
    expect((failure as Error).message).toMatch(/turn 1 is not a valid turn.*"txt":"typo"/);
  });

  it('plays turns in order, accepts pushed turns, and answers "done" when exhausted', async () => {
    const fake = await start({ script: ['first'], finalText: 'all done' });
    expect(await chatText(fake, 'a')).toBe('first');
    fake.script.push({ text: 'pushed later' });
    expect(await chatText(fake, 'b')).toBe('pushed later');
    fake.script.push('dropped');
    fake.script.replace(['replacement']);
    expect(await chatText(fake, 'c')).toBe('replacement');
    expect(await chatText(fake, 'd')).toBe('all done');
    expect(fake.mainRequests().map((entry) => [entry.turnIndex, entry.exhausted])).toEqual([
      [0, false],
      [1, false],
      [2, false],
      [undefined, true],
    ]);
    expect(fake.script.remaining).toBe(0);
  });

  it('answers bad JSON with a 400 in the dialect error shape', async () => {
    const fake = await start();
    const response = await fetch(`${fake.baseUrl.anthropic}/v1/messages`, {
      method: 'POST',
      body: '{"model": ',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toMatch(/not valid JSON/);
    const array = await fetch(`${fake.baseUrl.openai}/chat/completions`, { method: 'POST', body: '[]' });
    expect(array.status).toBe(400);
    expect(await array.text()).toMatch(/must be a JSON object/);
  });

  it('answers an unknown route with a 404 listing the routes, and records it', async () => {
    const fake = await start();
    const response = await fetch(`${fake.url}/v2/complete`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { message: string; routes: string[] } };
    expect(body.error.message).toContain('POST /v2/complete');
    expect(body.error.routes).toContain('POST /v1/responses (OpenAI Responses)');
    expect(fake.lastRequest()).toMatchObject({ operation: 'unknown', path: '/v2/complete', status: 404 });
  });

  it('lists models for OpenAI/Anthropic and Gemini clients', async () => {
    const fake = await start({ models: ['m-1', 'm-2'] });
    const openAi = (await (await fetch(`${fake.baseUrl.openai}/models`)).json()) as {
      data: { id: string }[];
    };
    expect(openAi.data.map((model) => model.id)).toEqual(['m-1', 'm-2']);
    const gemini = (await (await fetch(`${fake.url}/v1beta/models`)).json()) as {
      models: { name: string }[];
    };
    expect(gemini.models.map((model) => model.name)).toEqual(['models/m-1', 'models/m-2']);
    expect(fake.sideRequests()).toHaveLength(2);
  });

  it('keeps a turn queued and names the problem when writeFile meets a request without tools', async () => {
    const fake = await start({ script: [{ writeFile: { path: 'a.txt', content: 'A' } }] });
    const response = await chat(fake, 'no tools here');
    expect(response.status).toBe(500);
    expect(await response.text()).toMatch(/turn 0: cannot write a\.txt.*declared no tools/);
    expect(fake.problems).toHaveLength(1);
    expect(fake.lastRequest()?.problem).toBe(fake.problems[0]);
    const tools = [
      {
        type: 'function',
        function: {
          name: 'write',
          parameters: {
            type: 'object',
            properties: { path: { type: 'string' }, content: { type: 'string' } },
          },
        },
      },
    ];
    const served = (await (await chat(fake, 'now with tools', { tools })).json()) as {
      choices: { finish_reason: string; message: { tool_calls: { function: { arguments: string } }[] } }[];
    };
    expect(served.choices[0]?.finish_reason).toBe('tool_calls');
    expect(JSON.parse(served.choices[0]?.message.tool_calls[0]?.function.arguments ?? '')).toEqual({
      path: 'a.txt',
      content: 'A',
    });
  });

  it('serves a delayed turn after its delay, and takes the turn on arrival', async () => {
    const fake = await start({ script: [{ text: 'slow', delayMs: 50 }, 'fast'] });
    const slow = chatText(fake, 'first');
    await until(() => fake.script.served === 1);
    const fast = chatText(fake, 'second');
    expect(await Promise.all([slow, fast])).toEqual(['slow', 'fast']);
  });

  it('survives a client that hangs up mid-wait and keeps serving', async () => {
    const fake = await start({ script: [{ text: 'never read', delayMs: 5_000 }, 'still alive'] });
    const request = http.request(`${fake.baseUrl.openai}/chat/completions`, { method: 'POST' });
    request.on('error', () => undefined);
    request.end(chatBody('hang up on me'));
    await until(() => fake.script.served === 1);
    request.destroy();
    expect(await chatText(fake, 'next')).toBe('still alive');
    expect(fake.requests.map((entry) => entry.status)).toEqual([undefined, 200]);
    expect(fake.problems).toEqual([]);
  });

  it('close() ends a hanging answer and resolves', async () => {
    const fake = await start({ script: [{ hang: true }] });
    const pending = chat(fake, 'wait forever').then(
      () => 'answered',
      () => 'connection closed',
    );
    await until(() => fake.script.served === 1);
    await fake.close();
    expect(await pending).toBe('connection closed');
    expect(fake.lastRequest()).toMatchObject({ turnIndex: 0, status: undefined });
    await fake.close();
  });

  it('uses extra side-request rules first, and can turn the built-in ones off', async () => {
    const fake = await start({
      script: ['scripted'],
      sideRequestRules: [
        {
          name: 'ping',
          description: 'test rule',
          matches: (view) => view.messages.at(-1)?.text === 'ping',
          answer: () => 'pong',
        },
      ],
    });
    expect(await chatText(fake, 'ping')).toBe('pong');
    expect(fake.lastRequest()).toMatchObject({ side: true, sideRule: 'ping' });
    const plain = await start({ script: ['consumed'], builtInSideRequestRules: false });
    const title = await fetch(`${plain.baseUrl.openai}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        messages: [
          { role: 'system', content: 'You are a title generator.' },
          { role: 'user', content: 'x' },
        ],
      }),
    });
    expect(
      ((await title.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content,
    ).toBe('consumed');
  });
});
