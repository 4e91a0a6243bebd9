import { CoderCredentialsMissingError, isCoderAdapterV1, type SnodoError } from '@snodo/coder-sdk';
import { type FakeLlm, startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoderModelProviderMismatchError } from './errors/coder-model-provider-mismatch-error.js';
import { CoderModelRequiredError } from './errors/coder-model-required-error.js';
import { createLitellmCoder, createProviderPinnedCoder } from './litellm-adapter.js';
import { DIALECT_CASES, toolResultTexts } from './testing/dialect-cases.js';
import { createTemporaryWorkspace, type TemporaryWorkspace } from './testing/temporary-workspace.js';

const ORIGINAL = 'export const greeting = "hi";\n';
const EDITED = 'export const greeting = "hello, world";\n';

let workspace: TemporaryWorkspace;
let fake: FakeLlm | undefined;
beforeEach(() => {
  workspace = createTemporaryWorkspace({ 'src/greeting.ts': ORIGINAL, 'README.md': '# demo\n' });
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  workspace.cleanup();
});

describe('the direct coders as coder-v1 adapters', () => {
  it('are engine-managed coder-v1 adapters with the ids the CLI registers', () => {
    const coders = [
      createLitellmCoder(),
      createProviderPinnedCoder('openai'),
      createProviderPinnedCoder('anthropic'),
      createProviderPinnedCoder('gemini'),
    ];
    expect(coders.map((coder) => coder.id)).toEqual(['litellm', 'openai', 'anthropic', 'gemini']);
    for (const coder of coders) {
      expect(isCoderAdapterV1(coder)).toBe(true);
      expect(coder.kind).toBe('engine-managed');
      expect(coder.modelPrefix).toBeUndefined();
      expect(coder.supportsUsage).toBe(true);
      expect(coder.supportsAbort).toBe(true);
    }
  });

  it('declare the credentials core injects: none for litellm, the provider key for pinned coders', () => {
    expect(createLitellmCoder().credentials).toEqual({ envVars: [], optional: true });
    expect(createProviderPinnedCoder('openai').credentials).toEqual({
      envVars: ['OPENAI_API_KEY'],
      configKey: 'openai',
    });
    expect(createProviderPinnedCoder('anthropic').credentials).toEqual({
      envVars: ['ANTHROPIC_API_KEY'],
      configKey: 'anthropic',
    });
    expect(createProviderPinnedCoder('gemini').credentials).toEqual({
      envVars: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
      configKey: 'gemini',
    });
  });
});

describe.each(DIALECT_CASES)('reading a file, then submitting an edit, over $name', (dialect) => {
  const script = [
    { toolCall: { name: 'read_file', input: { path: 'src/greeting.ts' } } },
    { writeFile: { path: 'src/greeting.ts', content: EDITED } },
  ];
  const coders = [
    [
      'litellm',
      () => createLitellmCoder({ providers: dialect.providers(fake!), fetch: dialect.fetch?.(fake!) }),
    ],
    ...(dialect.pinnedCoder === undefined
      ? []
      : [
          [
            dialect.pinnedCoder,
            () =>
              createProviderPinnedCoder(dialect.pinnedCoder!, {
                providers: dialect.providers(fake!),
                fetch: dialect.fetch?.(fake!),
              }),
          ] as const,
        ]),
  ] as const;

  it.each(coders)(
    'the %s coder proposes the edit and the model saw the file in the tool result',
    async (_id, make) => {
      fake = await startFakeLlm({ script });
      const before = workspace.snapshot();
      const { request, events } = workspace.request({ model: dialect.model, env: dialect.env });

      const result = await make().doRun(request);

      expect(result).toMatchObject({
        status: 'changed',
        proposals: [{ path: 'src/greeting.ts', action: 'write', content: EDITED }],
        changedFiles: ['src/greeting.ts'],
        cliVersion: '0.1.0',
      });
      expect(fake.problems).toEqual([]);
      const requests = fake.mainRequests();
      expect(requests.map((entry) => entry.dialect)).toEqual([dialect.dialect, dialect.dialect]);
      expect(requests[0]?.toolNames).toEqual(
        expect.arrayContaining(['read_file', 'read_file_lines', 'list_files', 'submit_files']),
      );
      expect(toolResultTexts(requests[0]?.body).join('\n')).not.toContain(ORIGINAL);
      expect(toolResultTexts(requests[1]?.body)).toContain(ORIGINAL);
      // The first message lists the repository so the model can read what it needs at once.
      expect(fake.requestsContaining('src/greeting.ts\n')).not.toHaveLength(0);
      // Engine-managed: the coder proposes, core writes. The worktree is untouched.
      expect(workspace.snapshot()).toEqual(before);
      expect(events.filter((event) => event.type === 'coder-progress').map((event) => event.message)).toEqual(
        ['read_file src/greeting.ts', 'submit_files 1 file(s)'],
      );
      expect(events.filter((event) => event.type === 'usage')).toHaveLength(2);
      // Two calls at the fake's default usage (100 in, 20 out).
      expect(result.usage).toMatchObject({ inputTokens: 200, outputTokens: 40, cachedInputTokens: 0 });
    },
  );
});

describe('choosing the model', () => {
  it('fails before any request when no model is configured, saying how to set one', async () => {
    fake = await startFakeLlm();
    const { request } = workspace.request({ model: undefined });
    const error = await createLitellmCoder()
      .doRun(request)
      .catch((caught: unknown) => caught);
    expect(CoderModelRequiredError.isInstance(error)).toBe(true);
    expect((error as SnodoError).code).toBe('CODER_MODEL_REQUIRED');
    expect((error as Error).message).toContain('pass -m provider/model or set llm.coder.model');
    expect(fake.requests).toHaveLength(0);
  });

  it('falls back to its own configured model when a request names none', async () => {
    fake = await startFakeLlm({ script: [{ writeFile: { path: 'a.txt', content: 'a\n' } }] });
    const coder = createLitellmCoder({ model: 'fake/from-factory' });
    const { request } = workspace.request({
      model: undefined,
      coderConfig: {
        model: 'fake/from-coder-config',
        providers: { fake: { base_url: fake.sdkBaseUrl.openai } },
      },
    });
    expect((await coder.doRun(request)).usage?.model).toBe('fake/from-coder-config');
    expect(fake.mainRequests()[0]?.model).toBe('from-coder-config');
  });

  it('refuses a model of another provider on a pinned coder, naming both', async () => {
    const { request } = workspace.request({
      model: 'anthropic/claude-sonnet-4-5',
      env: { OPENAI_API_KEY: 'k' },
    });
    const error = await createProviderPinnedCoder('openai')
      .doRun(request)
      .catch((caught: unknown) => caught);
    expect(CoderModelProviderMismatchError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('OpenAI coder runs only openai models');
    expect((error as Error).message).toContain('anthropic/claude-sonnet-4-5');
    expect((error as Error).message).toContain('--coder litellm');
  });

  it('reads a bare id on a pinned coder as its own provider model (gpt-4o, a fine-tune id)', async () => {
    fake = await startFakeLlm({ script: [{ writeFile: { path: 'a.txt', content: 'a\n' } }] });
    const coder = createProviderPinnedCoder('openai', {
      providers: { openai: { base_url: fake.sdkBaseUrl.openai } },
    });
    const { request } = workspace.request({ model: 'ft:my-tuned-model', env: { OPENAI_API_KEY: 'k' } });
    const result = await coder.doRun(request);
    expect(result.usage?.model).toBe('openai/ft:my-tuned-model');
    expect(fake.mainRequests()[0]?.model).toBe('ft:my-tuned-model');
  });
});

describe('credentials', () => {
  it('fails with CODER_CREDENTIALS_MISSING naming the variable and `snodo config add` when the key is absent', async () => {
    fake = await startFakeLlm();
    const { request } = workspace.request({ model: 'anthropic/claude-sonnet-4-5', env: {} });
    const error = await createLitellmCoder()
      .doRun(request)
      .catch((caught: unknown) => caught);
    expect(CoderCredentialsMissingError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
    expect((error as Error).message).toContain('snodo config add anthropic <key>');
    expect(fake.requests).toHaveLength(0);
  });

  it('finds a key core injected under the default variable although config names api_key_env', async () => {
    fake = await startFakeLlm({ script: [{ writeFile: { path: 'a.txt', content: 'a\n' } }] });
    const coder = createProviderPinnedCoder('openai', {
      providers: { openai: { base_url: fake.sdkBaseUrl.openai, api_key_env: 'WORK_OPENAI_KEY' } },
    });
    const { request } = workspace.request({ model: 'gpt-4o', env: { OPENAI_API_KEY: 'injected-by-core' } });
    await expect(coder.doRun(request)).resolves.toMatchObject({ status: 'changed' });
    expect(fake.mainRequests()[0]?.hasCredentials).toBe(true);
  });

  it('checkAvailability: ready without a model; the model provider key decides once a model is known', async () => {
    const coder = createLitellmCoder();
    expect(await coder.checkAvailability({ env: {} })).toMatchObject({ ready: true, installed: true });
    const check = coder.checkAvailability as (options: object) => ReturnType<typeof coder.checkAvailability>;
    expect(await check({ env: {}, model: 'openai/gpt-4o' })).toMatchObject({
      ready: false,
      credentials: 'missing',
      reason: expect.stringContaining('OPENAI_API_KEY'),
      fix: 'snodo config add openai <key>',
    });
    expect(await check({ env: { OPENAI_API_KEY: 'k' }, model: 'openai/gpt-4o' })).toMatchObject({
      ready: true,
      credentials: 'environment',
    });
    expect(
      await check({
        env: {},
        model: 'anthropic/claude-sonnet-4-5',
        coderConfig: { providers: { anthropic: { api_key: 'stored' } } },
      }),
    ).toMatchObject({ ready: true, credentials: 'config' });
    expect(
      await check({
        env: {},
        model: 'vllm/qwen',
        coderConfig: { providers: { vllm: { base_url: 'http://127.0.0.1:9/v1' } } },
      }),
    ).toMatchObject({ ready: true, credentials: 'not-needed' });
    expect(await check({ env: {}, model: 'llama3' })).toMatchObject({
      ready: false,
      reason: expect.stringContaining('llama3'),
    });
  });

  it('checkAvailability of a pinned coder reports its own missing key, and the configured model', async () => {
    expect(await createProviderPinnedCoder('gemini').checkAvailability({ env: {} })).toMatchObject({
      ready: false,
      credentials: 'missing',
      reason: expect.stringContaining('GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY'),
    });
    expect(
      await createProviderPinnedCoder('gemini').checkAvailability({ env: { GEMINI_API_KEY: 'k' } }),
    ).toMatchObject({ ready: true, credentials: 'environment' });
    expect(
      await createLitellmCoder({ model: 'anthropic/claude-sonnet-4-5' }).checkAvailability({ env: {} }),
    ).toMatchObject({ ready: false, fix: 'snodo config add anthropic <key>' });
  });
});
