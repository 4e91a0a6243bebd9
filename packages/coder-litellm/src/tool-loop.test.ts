import { CoderAbortedError, CoderTimeoutError, type SnodoError } from '@snodo/coder-sdk';
import { type FakeLlm, type FakeLlmTurn, startFakeLlm } from '@snodo/conformance/fake-llm';
import { computeCostUsd, LlmCallFailedError, lookupPrice } from '@snodo/llm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoderOutputTruncatedError } from './errors/coder-output-truncated-error.js';
import { CoderSubmissionMissingError } from './errors/coder-submission-missing-error.js';
import { CoderTurnBudgetExhaustedError } from './errors/coder-turn-budget-exhausted-error.js';
import { createLitellmCoder } from './litellm-adapter.js';
import type { LitellmCoderSettings } from './litellm-coder-settings.js';
import { CORRECTIVE_MESSAGE, LAST_TURN_MESSAGE } from './prompt.js';
import { DIALECT_CASES, type DialectCase } from './testing/dialect-cases.js';
import { createTemporaryWorkspace, type TemporaryWorkspace } from './testing/temporary-workspace.js';

let workspace: TemporaryWorkspace;
let fake: FakeLlm | undefined;
beforeEach(() => {
  workspace = createTemporaryWorkspace({ 'src/greeting.ts': 'export const greeting = "hi";\n' });
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  workspace.cleanup();
});

/** The dialect `run` uses unless a test names another: an OpenAI-compatible endpoint. */
const COMPATIBLE = DIALECT_CASES[0]!;

/** Runs the litellm coder against the fake with `script`, reached the way `dialect` says. */
async function run(
  script: FakeLlmTurn[],
  settings: LitellmCoderSettings = {},
  options: { abort?: AbortSignal; dialect?: DialectCase } = {},
) {
  const dialect = options.dialect ?? COMPATIBLE;
  fake = await startFakeLlm({ script });
  const coder = createLitellmCoder({
    providers: dialect.providers(fake),
    fetch: dialect.fetch?.(fake),
    ...settings,
  });
  const { request, events } = workspace.request({
    model: dialect.model,
    env: dialect.env,
    ...(options.abort === undefined ? {} : { abortSignal: options.abort }),
  });
  const outcome = await coder.doRun(request).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  return { ...outcome, events, fake };
}

describe('a cut-off answer', () => {
  it.each(DIALECT_CASES)(
    'over $name fails with CODER_OUTPUT_TRUNCATED naming llm.coder.max_tokens',
    async (dialect) => {
      fake = await startFakeLlm({ script: [{ truncate: true, text: '{"files": [{"path": "src/gre' }] });
      const coder = createLitellmCoder({
        providers: dialect.providers(fake),
        fetch: dialect.fetch?.(fake),
        max_tokens: 300,
      });
      const before = workspace.snapshot();
      const { request } = workspace.request({ model: dialect.model, env: dialect.env });
      const error = await coder.doRun(request).catch((caught: unknown) => caught);
      expect(CoderOutputTruncatedError.isInstance(error)).toBe(true);
      expect((error as SnodoError).code).toBe('CODER_OUTPUT_TRUNCATED');
      expect((error as Error).message).toContain('llm.coder.max_tokens');
      expect((error as Error).message).toContain('300 tokens');
      expect((error as CoderOutputTruncatedError).usage.outputTokens).toBe(20);
      expect(fake.mainRequests()).toHaveLength(1);
      expect(workspace.snapshot()).toEqual(before);
    },
  );
});

// The AI SDK honours retry-after-ms, so the retry test does not wait through its 2 s backoff.
const QUICK_RETRY = { 'retry-after-ms': '10' };

describe('a failing provider', () => {
  it.each(DIALECT_CASES)(
    'over $name is retried, then reported as LLM_CALL_FAILED with status and attempts',
    async (dialect) => {
      const { error, fake } = await run(
        [
          { error: { status: 500, message: 'upstream exploded', headers: QUICK_RETRY } },
          { error: { status: 500, message: 'upstream exploded again', headers: QUICK_RETRY } },
        ],
        { max_retries: 1 },
        { dialect },
      );
      expect(fake.mainRequests().map((entry) => entry.status)).toEqual([500, 500]);
      expect(LlmCallFailedError.isInstance(error)).toBe(true);
      const failed = error as LlmCallFailedError;
      expect(failed.code).toBe('LLM_CALL_FAILED');
      expect(failed.statusCode).toBe(500);
      expect(failed.message).toContain(`The call to ${dialect.model.replace(/^gemini\//, 'google/')} failed`);
      expect(failed.message).toContain('upstream exploded again');
      expect(failed.message).toContain('2 attempts');
    },
  );

  it('recovers when a retry succeeds', async () => {
    const { result, fake } = await run(
      [{ error: { status: 500, headers: QUICK_RETRY } }, { writeFile: { path: 'a.txt', content: 'a\n' } }],
      { max_retries: 1 },
    );
    expect(result?.status).toBe('changed');
    expect(fake.mainRequests()).toHaveLength(2);
  });
});

describe('a model that answers in prose', () => {
  it.each(DIALECT_CASES)(
    'over $name gets one corrective turn, then CODER_SUBMISSION_MISSING quoting it',
    async (dialect) => {
      const { error, fake } = await run(
        [
          'Sure! Change the string to "hello, world" and you are done.',
          'As I said, just edit the file yourself.',
        ],
        {},
        { dialect },
      );
      expect(fake.mainRequests()).toHaveLength(2);
      expect(fake.requestsContaining(CORRECTIVE_MESSAGE).map((entry) => entry.index)).toEqual([1]);
      expect(CoderSubmissionMissingError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('never called submit_files');
      expect((error as Error).message).toContain('just edit the file yourself');
      expect((error as CoderSubmissionMissingError).turns).toBe(2);
    },
  );

  it('is accepted when it calls submit_files after the corrective turn', async () => {
    const { result, events } = await run([
      'I would change the greeting.',
      { writeFile: { path: 'src/greeting.ts', content: 'export const greeting = "hello, world";\n' } },
    ]);
    expect(result?.proposals).toEqual([
      { path: 'src/greeting.ts', action: 'write', content: 'export const greeting = "hello, world";\n' },
    ]);
    expect(events).toContainEqual({
      type: 'coder-progress',
      message: 'the model answered in prose; asking it to use submit_files',
    });
  });

  it('has its second answer read as a JSON file list, fenced greedily so inner fences survive', async () => {
    const content = 'Example:\n```ts\nconst a = 1;\n```\n';
    const answer = `\`\`\`json\n${JSON.stringify([{ path: 'docs/usage.md', content }])}\n\`\`\``;
    const { result } = await run(['Here is the plan.', answer]);
    expect(result?.proposals).toEqual([{ path: 'docs/usage.md', action: 'write', content }]);
  });
});

describe('the turn budget', () => {
  it('fails with CODER_TURN_BUDGET_EXHAUSTED after max_tool_turns calls, warning the model before the last', async () => {
    const read = { toolCall: { name: 'read_file', input: { path: 'src/greeting.ts' } } };
    const { error, fake } = await run([read, read, read, read], { max_tool_turns: 3 });
    expect(fake.mainRequests()).toHaveLength(3);
    expect(fake.requestsContaining(LAST_TURN_MESSAGE).map((entry) => entry.index)).toEqual([2]);
    expect(CoderTurnBudgetExhaustedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('used all 3 turns');
    expect((error as Error).message).toContain('read_file');
    expect((error as Error).message).toContain('llm.coder.max_tool_turns');
    expect((error as CoderTurnBudgetExhaustedError).usage.inputTokens).toBe(300);
  });

  it('hands a read error back to the model, which carries on', async () => {
    const { result, fake } = await run([
      { toolCall: { name: 'read_file', input: { path: 'src/missing.ts' } } },
      { toolCall: { name: 'read_file', input: { path: '../outside.txt' } } },
      { writeFile: { path: 'src/new.ts', content: 'export {};\n' } },
    ]);
    expect(result?.status).toBe('changed');
    expect(fake.requestsContaining('"src/missing.ts" does not exist')).toHaveLength(2);
    expect(
      fake.requestsContaining('cannot read "../outside.txt": the path contains a \'..\' segment'),
    ).toHaveLength(1);
  });

  it('hands an invalid submission back as a tool error, so the model can correct it', async () => {
    const { result, fake } = await run([
      { toolCall: { name: 'submit_files', input: { files: [{ path: 'a.txt', action: 'write' }] } } },
      { writeFile: { path: 'a.txt', content: 'fixed\n' } },
    ]);
    expect(fake.requestsContaining('has action write but no content')).toHaveLength(1);
    expect(result?.proposals).toEqual([{ path: 'a.txt', action: 'write', content: 'fixed\n' }]);
  });
});

describe('results', () => {
  it('proposes deletions and reports an empty submission as no-changes', async () => {
    const deletion = await run([
      {
        toolCall: {
          name: 'submit_files',
          input: { files: [{ path: './src//greeting.ts', action: 'delete' }] },
        },
      },
    ]);
    expect(deletion.result).toMatchObject({
      status: 'changed',
      proposals: [{ path: 'src/greeting.ts', action: 'delete' }],
      changedFiles: ['src/greeting.ts'],
    });
    await fake?.close();
    const empty = await run([{ toolCall: { name: 'submit_files', input: { files: [] } } }]);
    expect(empty.result).toMatchObject({ status: 'no-changes', proposals: [], changedFiles: [] });
  });

  it('sums usage over every call and prices it from the catalog for a known model', async () => {
    fake = await startFakeLlm({
      script: [
        {
          toolCall: { name: 'read_file', input: { path: 'src/greeting.ts' } },
          usage: { input: 1200, output: 80, cached: 200 },
        },
        {
          writeFile: { path: 'src/greeting.ts', content: 'x\n' },
          usage: { input: 1500, output: 300, cached: 1000 },
        },
      ],
    });
    const coder = createLitellmCoder({ providers: { openai: { base_url: fake.sdkBaseUrl.openai } } });
    const { request, events } = workspace.request({ model: 'openai/gpt-4o', env: { OPENAI_API_KEY: 'k' } });
    const result = await coder.doRun(request);
    const price = lookupPrice('openai/gpt-4o');
    expect(price).not.toBeNull();
    const expectedCost = computeCostUsd(
      { inputTokens: 1500, outputTokens: 380, cacheReadTokens: 1200 },
      price!.price,
    );
    expect(result.usage).toEqual({
      inputTokens: 1500,
      outputTokens: 380,
      cachedInputTokens: 1200,
      costUsd: expect.closeTo(expectedCost, 12),
      // The provider reported every token count; only the cost comes from the catalog.
      source: 'reported',
      model: 'openai/gpt-4o',
    });
    const usageEvents = events.filter((event) => event.type === 'usage');
    expect(usageEvents.map((event) => event.usage.inputTokens)).toEqual([1000, 1500]);
  });

  it('reports an unknown cost as null rather than guessing', async () => {
    const { result } = await run([{ writeFile: { path: 'a.txt', content: 'a\n' } }]);
    expect(result?.usage).toMatchObject({ costUsd: null, source: 'reported', model: 'fake/coder-model' });
  });
});

describe('stopping', () => {
  it('stops a hanging model call when the run is cancelled: CODER_ABORTED', async () => {
    const controller = new AbortController();
    const pending = run([{ hang: true }], {}, { abort: controller.signal });
    while (fake?.mainRequests().length !== 1) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const { error } = await pending;
    expect(CoderAbortedError.isInstance(error)).toBe(true);
  });

  it('refuses to start a cancelled attempt', async () => {
    const controller = new AbortController();
    controller.abort();
    const { error, fake } = await run([], {}, { abort: controller.signal });
    expect(CoderAbortedError.isInstance(error)).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });

  it('stops at the wall-clock limit: CODER_TIMEOUT', async () => {
    fake = await startFakeLlm({ script: [{ hang: true }] });
    const coder = createLitellmCoder({ providers: { fake: { base_url: fake.sdkBaseUrl.openai } } });
    const { request } = workspace.request({ model: 'fake/coder-model', timeoutMs: 300 });
    const error = await coder.doRun(request).catch((caught: unknown) => caught);
    expect(CoderTimeoutError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('timeout_seconds');
  });
});
