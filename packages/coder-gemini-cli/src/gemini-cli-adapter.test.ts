import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestWorkspace, type TestWorkspace } from '@snodo/conformance/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiCliCoder } from './gemini-cli-adapter.js';
import { installFakeGemini } from './testing/fake-gemini.js';

const fixtureLines = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')
    .trim()
    .split('\n');
const success = fixtureLines('gemini-cli-0.61.0.stream.jsonl');
const failure = fixtureLines('gemini-cli-0.61.0-error.stream.jsonl');
const key = { GEMINI_API_KEY: 'test-gemini-key' };

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace();
});
afterEach(() => workspace.cleanup());

describe('Gemini CLI coder', () => {
  // A real CLI (or a node stand-in) starts here: seconds on a loaded 2-core machine, over vitest's 5 s.
  it('runs headless in a private home with snodo settings and reads usage from the result event', {
    timeout: 30_000,
  }, async () => {
    const fake = installFakeGemini(workspace, {
      writeFile: { path: 'hello.txt', content: 'hi\n' },
      stdout: success,
    });
    const result = await createGeminiCliCoder().doRun(
      workspace.request({ env: key, model: 'gemini-cli/gemini-2.5-pro' }),
    );

    expect(result.status).toBe('changed');
    expect(result.changedFiles).toEqual(['hello.txt']);
    expect(result.usage).toEqual({
      inputTokens: 1400,
      cachedInputTokens: 1200,
      outputTokens: 52,
      costUsd: null,
      source: 'reported',
      model: 'gemini-2.5-pro',
    });
    expect(result.sessionId).toBe('52ee43ee-ed48-49f0-8fd1-3428b8bcb29a');
    expect(result.cliVersion).toBe('0.61.0');

    const record = fake.readRecord();
    expect(record.argv).toEqual([
      '--output-format',
      'stream-json',
      '--approval-mode',
      'yolo',
      '--model',
      'gemini-2.5-pro',
      '--prompt=Add a greeting to hello.txt',
    ]);
    expect(record.env).toMatchObject({
      GEMINI_API_KEY: 'test-gemini-key',
      GEMINI_CLI_NO_RELAUNCH: 'true',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_SANDBOX: 'false',
    });
    // The private home lives in the job's state directory (writable inside the sandbox), kept with the job.
    const home = record.env.GEMINI_CLI_HOME ?? '';
    expect(home).toBe(path.join(workspace.stateDirectory, 'gemini-cli-home'));
    expect(existsSync(path.join(home, '.gemini', 'settings.json'))).toBe(true);
    expect(record.settings).toEqual({
      security: { auth: { selectedType: 'gemini-api-key' } },
      context: { fileName: ['.snodo-instructions.md', 'GEMINI.md'] },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      tools: { sandbox: false },
    });
    expect(record.instructions).toContain('SNODO-TEST-INSTRUCTIONS');
    expect(workspace.git(['status', '--porcelain'])).toBe('');
  });

  it('never passes an inherited base URL or settings override; coder_config base_url sets the endpoint', async () => {
    const fake = installFakeGemini(workspace, { stdout: success });
    const inherited = {
      ...key,
      GOOGLE_GEMINI_BASE_URL: 'http://inherited.invalid',
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/etc/other-settings.json',
      SANDBOX: 'gemini-sandbox',
    };
    await createGeminiCliCoder().doRun(workspace.request({ env: inherited }));
    const first = fake.readRecord().env;
    expect(first.GOOGLE_GEMINI_BASE_URL).toBeUndefined();
    expect(first.GEMINI_CLI_SYSTEM_SETTINGS_PATH).toBeUndefined();
    expect(first.SANDBOX).toBeUndefined();

    await createGeminiCliCoder().doRun(
      workspace.request({ env: inherited, coderConfig: { base_url: 'http://127.0.0.1:9/' } }),
    );
    expect(fake.readRecord().env.GOOGLE_GEMINI_BASE_URL).toBe('http://127.0.0.1:9/');
  });

  it('gives Gemini CLI a GOOGLE_API_KEY as its GEMINI_API_KEY when only that one is set', async () => {
    const fake = installFakeGemini(workspace, { stdout: success });
    await createGeminiCliCoder().doRun(workspace.request({ env: { GOOGLE_API_KEY: 'google-key' } }));
    expect(fake.readRecord().env.GEMINI_API_KEY).toBe('google-key');
  });

  it('stops a CLI that hangs after its result event and keeps the result', async () => {
    installFakeGemini(workspace, {
      writeFile: { path: 'hello.txt', content: 'hi\n' },
      stdout: success,
      hang: true,
    });
    const result = await createGeminiCliCoder({ finalEventGraceMs: 200, killGraceMs: 200 }).doRun(
      workspace.request({ env: key }),
    );
    expect(result.status).toBe('changed');
    expect(result.usage?.inputTokens).toBe(1400);
    expect(readFileSync(workspace.transcriptPath, 'utf8')).toContain(
      "stopped by snodo after the CLI's final event",
    );
  });

  it("turns a failed run into CODER_FAILED carrying Gemini's error, and commits nothing", async () => {
    installFakeGemini(workspace, {
      writeFile: { path: 'partial.txt', content: 'half\n' },
      stdout: failure,
      stderr: 'Error when talking to Gemini API\n',
      exitCode: 144,
    });
    const run = createGeminiCliCoder().doRun(workspace.request({ env: key }));
    await expect(run).rejects.toMatchObject({
      code: 'CODER_FAILED',
      exitCode: 144,
      message: expect.stringContaining('API key not valid'),
    });
    expect(workspace.git(['rev-list', '--count', 'HEAD']).trim()).toBe('1');
  });

  it('treats a result with status error as a failure even when the exit code is 0', async () => {
    installFakeGemini(workspace, {
      writeFile: { path: 'x.txt', content: 'x\n' },
      stdout: failure,
      exitCode: 0,
    });
    await expect(createGeminiCliCoder().doRun(workspace.request({ env: key }))).rejects.toMatchObject({
      code: 'CODER_FAILED',
      message: expect.stringContaining('reported status "error"'),
    });
    expect(workspace.git(['rev-list', '--count', 'HEAD']).trim()).toBe('1');
  });

  it('refuses a Gemini CLI outside the verified versions before touching the worktree', async () => {
    installFakeGemini(workspace, { version: '0.62.0', stdout: success });
    const coder = createGeminiCliCoder();
    const availability = await coder.checkAvailability({ env: workspace.request({ env: key }).env });
    expect(availability).toMatchObject({ ready: false, version: '0.62.0', versionSupported: false });
    await expect(coder.doRun(workspace.request({ env: key }))).rejects.toMatchObject({
      code: 'CODER_CLI_VERSION_UNSUPPORTED',
    });
    expect(existsSync(path.join(workspace.workspace, '.snodo-instructions.md'))).toBe(false);
    expect(existsSync(path.join(workspace.root, 'fake-gemini-record.json'))).toBe(false);
  });

  it('rejects an invalid base_url with CODER_CONFIG_INVALID before the CLI starts', async () => {
    installFakeGemini(workspace, { stdout: success });
    const run = createGeminiCliCoder().doRun(
      workspace.request({ env: key, coderConfig: { base_url: 'not a url' } }),
    );
    await expect(run).rejects.toMatchObject({ code: 'CODER_CONFIG_INVALID', setting: 'base_url' });
    expect(existsSync(workspace.transcriptPath)).toBe(false);
  });

  // A real CLI (or a node stand-in) starts here: seconds on a loaded 2-core machine, over vitest's 5 s.
  it('reads the version of the real pinned Gemini CLI and leaves nothing in HOME', {
    timeout: 60_000,
  }, async () => {
    const pinned = fileURLToPath(new URL('../node_modules/.bin', import.meta.url));
    const env = {
      PATH: `${pinned}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: workspace.home,
      ...key,
    };
    const availability = await createGeminiCliCoder().checkAvailability({ env });
    expect(availability).toMatchObject({ ready: true, version: '0.61.0', versionSupported: true });
    expect(readdirSync(workspace.home)).toEqual([]);
  });
});
