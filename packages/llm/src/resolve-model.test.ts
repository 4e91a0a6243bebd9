import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmModelStringInvalidError } from './errors/llm-model-string-invalid-error.js';
import { LlmProviderNotInstalledError } from './errors.js';
import { resolveModel } from './resolve-model.js';

const keys = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', GEMINI_API_KEY: 'g' };

describe('resolveModel', () => {
  it('never hands out a plain string id', async () => {
    const resolved = await resolveModel('anthropic/claude-sonnet-4-5', { env: keys });
    expect(typeof resolved.model).toBe('object');
    expect(resolved.model.specificationVersion).toBe('v3');
    expect(resolved).toMatchObject({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
      modelString: 'anthropic/claude-sonnet-4-5',
      api: 'anthropic-messages',
      baseUrl: 'https://api.anthropic.com/v1',
      baseUrlSource: 'default',
      credentials: { source: 'environment', envVar: 'ANTHROPIC_API_KEY' },
    });
  });

  it('uses the Responses API on api.openai.com and Chat Completions on any other base URL', async () => {
    const official = await resolveModel('gpt-4o', { env: keys });
    expect(official.api).toBe('openai-responses');
    expect(official.model.provider).toBe('openai.responses');

    const proxied = await resolveModel('openai/gpt-4o', {
      env: keys,
      providers: { openai: { base_url: 'http://127.0.0.1:9/v1/' } },
    });
    expect(proxied).toMatchObject({
      api: 'openai-chat',
      baseUrl: 'http://127.0.0.1:9/v1',
      baseUrlSource: 'config',
    });
    expect(proxied.model.provider).toBe('openai.chat');
  });

  it('honours ANTHROPIC_BASE_URL from the given environment', async () => {
    const resolved = await resolveModel('claude-haiku-4-5', {
      env: { ...keys, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect(resolved).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', baseUrlSource: 'environment' });
  });

  it('routes gemini/ and bare gemini names to the Google client', async () => {
    const resolved = await resolveModel('gemini/gemini-2.5-flash', { env: keys });
    expect(resolved).toMatchObject({ provider: 'google', api: 'google-generative-ai' });
  });

  it('makes any provider with a base_url an OpenAI-compatible endpoint', async () => {
    const resolved = await resolveModel('vllm/Qwen/Qwen3-8B', {
      env: {},
      providers: { vllm: { base_url: 'http://127.0.0.1:9/v1' } },
    });
    expect(resolved).toMatchObject({
      provider: 'vllm',
      modelId: 'Qwen/Qwen3-8B',
      api: 'openai-compatible-chat',
      credentials: { source: 'none', required: false },
    });
    expect(resolved.model.provider).toBe('vllm.chat');
  });

  it('knows where a LiteLLM proxy and Ollama listen by default', async () => {
    expect(await resolveModel('litellm/gpt-4o', { env: {} })).toMatchObject({
      api: 'openai-compatible-chat',
      baseUrl: 'http://localhost:4000/v1',
    });
    expect(await resolveModel('ollama/llama3.1', { env: {} })).toMatchObject({
      baseUrl: 'http://localhost:11434/v1',
    });
  });

  it('serves mock/pass, mock/warn and mock/blocker and nothing else under mock/', async () => {
    for (const severity of ['pass', 'warn', 'blocker']) {
      const resolved = await resolveModel(`mock/${severity}`, { env: {} });
      expect(resolved).toMatchObject({ api: 'mock', modelString: `mock/${severity}` });
    }
    await expect(resolveModel('mock/maybe', { env: {} })).rejects.toSatisfy(
      LlmModelStringInvalidError.isInstance,
    );
  });

  it('says how to install a missing @ai-sdk package, exactly', async () => {
    const failure = resolveModel('xyz/some-model', { env: { XYZ_API_KEY: 'k' }, resolveFrom: [tmpdir()] });
    await expect(failure).rejects.toSatisfy(LlmProviderNotInstalledError.isInstance);
    await expect(failure).rejects.toThrow('install it: pnpm add @ai-sdk/xyz (or npm i @ai-sdk/xyz)');
    await expect(failure).rejects.toThrow('providers.xyz.base_url');
  });
});

describe('resolveModel with an optional provider package', () => {
  let appDirectory: string;

  beforeAll(() => {
    // An app directory with its own @ai-sdk/fakeprov, invisible to a plain import() from this package.
    appDirectory = mkdtempSync(join(tmpdir(), 'snodo-llm-app-'));
    const packageDirectory = join(appDirectory, 'node_modules', '@ai-sdk', 'fakeprov');
    mkdirSync(packageDirectory, { recursive: true });
    writeFileSync(
      join(packageDirectory, 'package.json'),
      JSON.stringify({ name: '@ai-sdk/fakeprov', version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    writeFileSync(
      join(packageDirectory, 'index.js'),
      [
        'export function createFakeprov(settings) {',
        '  return { languageModel: (modelId) => ({',
        "    specificationVersion: 'v3', provider: 'fakeprov.chat', modelId, supportedUrls: {},",
        '    apiKeySeen: settings.apiKey,',
        "    doGenerate: async () => { throw new Error('not scripted'); },",
        "    doStream: async () => { throw new Error('not scripted'); },",
        '  }) };',
        '}',
      ].join('\n'),
    );
  });

  afterAll(() => {
    rmSync(appDirectory, { recursive: true, force: true });
  });

  it('loads it from the app directory and hands it the key', async () => {
    const resolved = await resolveModel('fakeprov/model-1', {
      env: { FAKEPROV_API_KEY: 'fk' },
      resolveFrom: [appDirectory],
    });
    expect(resolved).toMatchObject({ api: 'ai-sdk-package', provider: 'fakeprov', modelId: 'model-1' });
    expect((resolved.model as unknown as { apiKeySeen: string }).apiKeySeen).toBe('fk');
    expect(resolved.credentials).toMatchObject({ source: 'environment', envVar: 'FAKEPROV_API_KEY' });
  });

  it('still asks for the key once the package is found', async () => {
    await expect(resolveModel('fakeprov/model-1', { env: {}, resolveFrom: [appDirectory] })).rejects.toThrow(
      /FAKEPROV_API_KEY is not set.*snodo config add fakeprov <key>/,
    );
  });
});
