import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APICallError, generateText, type LanguageModel, Output, stepCountIs, streamText, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FakeLlmDialect } from './dialect.js';
import { type FakeLlm, startFakeLlm } from './fake-llm-server.js';

/**
 * The scenarios every dialect must pass when driven by its real AI SDK client over real HTTP. Test-only
 * helper (it imports the AI SDK, a dev dependency); each `dialect-*.test.ts` calls it with its provider.
 */
export interface DialectSuiteOptions {
  /** The dialect the requests must be recorded under. */
  dialect: FakeLlmDialect;
  /** The recorded path of a generation request. */
  path: RegExp;
  /** The real AI SDK model pointed at the fake, using `apiKey`. */
  createModel(fake: FakeLlm, apiKey: string): LanguageModel;
}

const API_KEY = 'sk-fake-llm-secret-0123456789';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** Registers the shared scenarios for one dialect. */
export function describeDialectWithAiSdk(title: string, options: DialectSuiteOptions): void {
  describe(title, () => {
    let fake: FakeLlm;
    let model: LanguageModel;
    let workspace: string;
    beforeEach(async () => {
      fake = await startFakeLlm();
      model = options.createModel(fake, API_KEY);
      workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-llm-dialect-'));
    });
    afterEach(async () => {
      await fake.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    });

    it('answers generateText with the scripted text and usage, and records the request', async () => {
      fake.script.push({ text: 'Hello from the script.', usage: { input: 150, output: 30, cached: 40 } });
      const result = await generateText({ model, maxRetries: 0, prompt: 'Say hello, marker-7731.' });
      expect(result.text).toBe('Hello from the script.');
      expect(result.finishReason).toBe('stop');
      expect(result.usage.inputTokens).toBe(150);
      expect(result.usage.outputTokens).toBe(30);
      expect(result.usage.inputTokenDetails.cacheReadTokens).toBe(40);
      const recorded = fake.lastRequest();
      expect(recorded).toMatchObject({
        dialect: options.dialect,
        method: 'POST',
        stream: false,
        side: false,
        turnIndex: 0,
      });
      expect(recorded?.path).toMatch(options.path);
      expect(recorded?.hasCredentials).toBe(true);
      expect(JSON.stringify(fake.requests)).not.toContain(API_KEY);
      expect(fake.requestsContaining('marker-7731')).toEqual([recorded]);
    });

    it('streams the scripted text in several deltas with the scripted usage', async () => {
      fake.script.push({
        text: 'Streaming works across several small deltas.',
        usage: { input: 70, output: 9 },
      });
      const result = streamText({ model, maxRetries: 0, prompt: 'Stream please.' });
      const deltas: string[] = [];
      for await (const delta of result.textStream) deltas.push(delta);
      expect(deltas.join('')).toBe('Streaming works across several small deltas.');
      expect(deltas.length).toBeGreaterThan(1);
      expect(await result.finishReason).toBe('stop');
      const usage = await result.usage;
      expect(usage.inputTokens).toBe(70);
      expect(usage.outputTokens).toBe(9);
      expect(fake.lastRequest()?.stream).toBe(true);
    });

    for (const mode of ['generateText', 'streamText'] as const) {
      it(`runs a ${mode} tool loop: writeFile maps onto the declared write_file tool, then the final text`, async () => {
        fake.script.push(
          { writeFile: { path: 'notes/hello.txt', content: 'hello from the fake\n' } },
          'I wrote the file.',
        );
        const tools = {
          write_file: tool({
            description: 'Write a file in the workspace.',
            inputSchema: z.object({ file_path: z.string(), content: z.string() }),
            execute: async ({ file_path, content }) => {
              const target = path.join(workspace, file_path);
              fs.mkdirSync(path.dirname(target), { recursive: true });
              fs.writeFileSync(target, content);
              return `wrote ${file_path} (tool-result-5521)`;
            },
          }),
        };
        const request = {
          model,
          maxRetries: 0,
          tools,
          stopWhen: stepCountIs(5),
          prompt: 'Write the greeting file.',
        };
        const result = mode === 'generateText' ? await generateText(request) : streamText(request);
        expect(await result.text).toBe('I wrote the file.');
        expect(await result.steps).toHaveLength(2);
        expect(fs.readFileSync(path.join(workspace, 'notes/hello.txt'), 'utf8')).toBe(
          'hello from the fake\n',
        );
        expect((await result.totalUsage).inputTokens).toBe(200);
        const main = fake.mainRequests();
        expect(main.map((entry) => entry.turnIndex)).toEqual([0, 1]);
        expect(main[0]?.writeStrategy).toBe('write-tool');
        expect(main[0]?.toolNames).toEqual(['write_file']);
        expect(fake.requestsContaining('tool-result-5521')).toEqual([main[1]]);
      });
    }

    it('returns a scripted verdict as structured output', async () => {
      fake.script.push({ verdict: { pass: false, reason: 'The diff removes the test.' } });
      const { output } = await generateText({
        model,
        maxRetries: 0,
        output: Output.object({ schema: z.object({ pass: z.boolean(), reason: z.string() }) }),
        prompt: 'Judge this diff:\n-it("works")',
      });
      expect(output).toEqual({ pass: false, reason: 'The diff removes the test.' });
      expect(fake.requestsContaining('-it("works")')).toHaveLength(1);
    });

    it('surfaces a scripted 500 as an API error, then serves the next turn', async () => {
      fake.script.push({ error: { status: 500, message: 'scripted outage' } }, 'Recovered.');
      const failure = await generateText({ model, maxRetries: 0, prompt: 'Fail once.' }).catch(
        (error: unknown) => error,
      );
      expect(APICallError.isInstance(failure)).toBe(true);
      expect((failure as APICallError).statusCode).toBe(500);
      expect((failure as APICallError).responseBody).toContain('scripted outage');
      const retry = await generateText({ model, maxRetries: 0, prompt: 'Again.' });
      expect(retry.text).toBe('Recovered.');
    });

    it('lets the client retry a scripted 429 that carries retry-after-ms', async () => {
      fake.script.push(
        { error: { status: 429, headers: { 'retry-after-ms': '0' } } },
        'After the rate limit.',
      );
      const result = await generateText({ model, maxRetries: 1, prompt: 'Retry me.' });
      expect(result.text).toBe('After the rate limit.');
      expect(fake.mainRequests().map((entry) => entry.status)).toEqual([429, 200]);
    });

    it('surfaces a truncated turn as finish reason length, streaming and not', async () => {
      fake.script.push({ truncate: true, text: 'The answer was cut' }, { truncate: true, text: 'Cut again' });
      const whole = await generateText({ model, maxRetries: 0, prompt: 'Write a long essay.' });
      expect(whole.finishReason).toBe('length');
      expect(whole.text).toBe('The answer was cut');
      const streamed = streamText({ model, maxRetries: 0, prompt: 'Write another long essay.' });
      expect(await streamed.text).toBe('Cut again');
      expect(await streamed.finishReason).toBe('length');
    });

    it('answers a title side request without consuming the script', async () => {
      fake.script.push('The main answer.');
      const title = await generateText({
        model,
        maxRetries: 0,
        system: 'You are a title generator. You output ONLY a thread title.',
        prompt: 'Fix the login bug',
      });
      expect(title.text).toBe('Fake LLM session');
      const main = await generateText({ model, maxRetries: 0, prompt: 'Fix the login bug' });
      expect(main.text).toBe('The main answer.');
      expect(fake.sideRequests().map((entry) => entry.sideRule)).toEqual(['title']);
      expect(fake.mainRequests()).toHaveLength(1);
    });

    it('answers the final text once the script is exhausted', async () => {
      const result = await generateText({ model, maxRetries: 0, prompt: 'Anything left?' });
      expect(result.text).toBe('done');
      expect(fake.lastRequest()?.exhausted).toBe(true);
    });
  });
}
