import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestWorkspace, type TestWorkspace } from '@snodo/conformance/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpencodeCliCoder } from './opencode-cli-adapter.js';
import { installFakeOpencode } from './testing/fake-opencode.js';

const fixtureLines = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')
    .trim()
    .split('\n');
const success = fixtureLines('opencode-1.18.33.jsonl');
const failure = fixtureLines('opencode-1.18.33-error.jsonl');

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace();
});
afterEach(() => workspace.cleanup());

describe('OpenCode CLI coder', () => {
  // A real CLI (or a node stand-in) starts here: seconds on a loaded 2-core machine, over vitest's 5 s.
  it('runs `opencode run` hermetically with snodo configuration and sums usage from the events', {
    timeout: 30_000,
  }, async () => {
    const fake = installFakeOpencode(workspace, {
      writeFile: { path: 'hello.txt', content: 'hi\n' },
      stdout: success,
    });
    const result = await createOpencodeCliCoder().doRun(
      workspace.request({ model: 'opencode-cli/anthropic/claude-sonnet-4-5' }),
    );

    expect(result.status).toBe('changed');
    expect(result.changedFiles).toEqual(['hello.txt']);
    expect(result.usage).toEqual({
      inputTokens: 1400,
      cachedInputTokens: 1200,
      outputTokens: 52,
      costUsd: null,
      source: 'reported',
      model: 'claude-sonnet-4-5',
    });
    expect(result.sessionId).toBe('ses_dd43c74e4ffeYUQ21nrnZGjRed');
    expect(workspace.events.filter((event) => event.type === 'usage')).toHaveLength(2);

    const record = fake.readRecord();
    expect(record.argv).toEqual([
      'run',
      '--format',
      'json',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--',
      'Add a greeting to hello.txt',
    ]);
    expect(record.env).toMatchObject({
      OPENCODE_DISABLE_AUTOUPDATE: 'true',
      OPENCODE_DISABLE_SHARE: 'true',
      OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
      OPENCODE_DISABLE_PROJECT_CONFIG: 'true',
      OPENCODE_DISABLE_MODELS_FETCH: 'true',
      OPENCODE_DISABLE_CLAUDE_CODE: 'true',
    });
    // The private XDG directories live in the job's state directory (writable inside the sandbox).
    const data = record.env.XDG_DATA_HOME ?? '';
    expect(record.xdgDataExisted).toBe(true);
    expect(data).toBe(path.join(workspace.stateDirectory, 'opencode-cli', 'data'));
    expect(existsSync(data)).toBe(true);
    expect(record.config).toEqual({
      $schema: 'https://opencode.ai/config.json',
      permission: { edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'deny' },
      instructions: [
        path.join(workspace.workspace, '.snodo-instructions.md'),
        path.join(workspace.workspace, 'AGENTS.md'),
      ],
      autoupdate: false,
      share: 'disabled',
      snapshot: false,
    });
    expect(record.instructions).toContain('SNODO-TEST-INSTRUCTIONS');
    expect(workspace.git(['status', '--porcelain'])).toBe('');
  });

  it('declares coder_config.base_url as provider snodo and never passes inherited endpoints or OpenCode settings', async () => {
    const fake = installFakeOpencode(workspace, { stdout: success });
    await createOpencodeCliCoder().doRun(
      workspace.request({
        model: 'opencode-cli/snodo/qwen3-coder',
        env: {
          OPENAI_BASE_URL: 'http://inherited.invalid/v1',
          OPENCODE_CONFIG: '/etc/other-opencode.json',
          OPENCODE: '1',
          OPENCODE_API_KEY: 'zen-key',
        },
        coderConfig: { base_url: 'http://127.0.0.1:9/v1', api_key_env: 'LOCAL_LLM_KEY' },
      }),
    );
    const { env, config } = fake.readRecord();
    expect(env.OPENAI_BASE_URL).toBeUndefined();
    expect(env.OPENCODE_CONFIG).toBeUndefined();
    expect(env.OPENCODE).toBeUndefined();
    expect(env.OPENCODE_API_KEY).toBe('zen-key');
    expect(config).toMatchObject({
      model: 'snodo/qwen3-coder',
      small_model: 'snodo/qwen3-coder',
      provider: {
        snodo: {
          npm: '@ai-sdk/openai-compatible',
          options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: '{env:LOCAL_LLM_KEY}' },
          models: { 'qwen3-coder': {} },
        },
      },
    });
  });

  it("uses the user's own OpenCode directories with hermetic: false", async () => {
    const fake = installFakeOpencode(workspace, { stdout: success });
    await createOpencodeCliCoder().doRun(workspace.request({ coderConfig: { hermetic: false } }));
    const { env } = fake.readRecord();
    expect(env.XDG_DATA_HOME).toBeUndefined();
    expect(env.OPENCODE_DISABLE_PROJECT_CONFIG).toBeUndefined();
    expect(env.OPENCODE_DISABLE_AUTOUPDATE).toBe('true');
  });

  it('stops OpenCode when it hangs after its final step and keeps the result', async () => {
    installFakeOpencode(workspace, {
      writeFile: { path: 'hello.txt', content: 'hi\n' },
      stdout: success,
      hang: true,
    });
    const result = await createOpencodeCliCoder({ finalEventGraceMs: 200, killGraceMs: 200 }).doRun(
      workspace.request(),
    );
    expect(result.status).toBe('changed');
    expect(result.usage?.inputTokens).toBe(1400);
    expect(readFileSync(workspace.transcriptPath, 'utf8')).toContain(
      "stopped by snodo after the CLI's final event",
    );
  });

  it("turns a failed session into CODER_FAILED carrying OpenCode's error, and commits nothing", async () => {
    installFakeOpencode(workspace, {
      writeFile: { path: 'partial.txt', content: 'x\n' },
      stdout: failure,
      exitCode: 1,
    });
    await expect(createOpencodeCliCoder().doRun(workspace.request())).rejects.toMatchObject({
      code: 'CODER_FAILED',
      exitCode: 1,
      message: expect.stringContaining('Incorrect API key provided'),
    });
    expect(workspace.git(['rev-list', '--count', 'HEAD']).trim()).toBe('1');
  });

  it('says so when ripgrep is missing from PATH, since OpenCode would download it', async () => {
    installFakeOpencode(workspace, { stdout: success });
    const directories = [workspace.binDirectory, path.dirname(process.execPath), '/usr/bin', '/bin'];
    await createOpencodeCliCoder().doRun(workspace.request({ env: { PATH: directories.join(':') } }));
    const progress = workspace.events.filter((event) => event.type === 'coder-progress');
    const ripgrepOnPath = directories.some((directory) => existsSync(path.join(directory, 'rg')));
    expect(progress.some((event) => event.message.includes('ripgrep (rg) is not on PATH'))).toBe(
      !ripgrepOnPath,
    );
  });

  it('refuses an OpenCode outside the verified versions (OpenCode 2 is another program)', async () => {
    installFakeOpencode(workspace, { version: '2.0.1', stdout: success });
    await expect(createOpencodeCliCoder().doRun(workspace.request())).rejects.toMatchObject({
      code: 'CODER_CLI_VERSION_UNSUPPORTED',
    });
    expect(existsSync(path.join(workspace.root, 'fake-opencode-record.json'))).toBe(false);
  });

  it('rejects an invalid coder_config before the CLI starts', async () => {
    installFakeOpencode(workspace, { stdout: success });
    await expect(
      createOpencodeCliCoder().doRun(workspace.request({ coderConfig: { api_key_env: 'not a name' } })),
    ).rejects.toMatchObject({ code: 'CODER_CONFIG_INVALID', setting: 'api_key_env' });
    expect(existsSync(workspace.transcriptPath)).toBe(false);
  });

  // A real CLI (or a node stand-in) starts here: seconds on a loaded 2-core machine, over vitest's 5 s.
  it('reads the version of the real pinned OpenCode and leaves nothing in HOME', {
    timeout: 30_000,
  }, async () => {
    const pinned = fileURLToPath(new URL('../node_modules/.bin', import.meta.url));
    const env = { PATH: `${pinned}:/usr/bin:/bin`, HOME: workspace.home };
    const availability = await createOpencodeCliCoder().checkAvailability({ env });
    expect(availability).toMatchObject({ ready: true, version: '1.18.33', versionSupported: true });
    expect(readdirSync(workspace.home)).toEqual([]);
  });
});
