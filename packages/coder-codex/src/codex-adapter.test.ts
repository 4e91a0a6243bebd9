import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type CreateFakeCliOptions, createFakeCli, type FakeCli } from '@snodo/conformance/fake-cli';
import { createTemporaryRun, isolateGitConfiguration, type TemporaryRun } from '@snodo/conformance/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCodexCoder } from './codex-adapter.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const success = fixture('codex-exec-json-0.171.0.jsonl');
const failure = fixture('codex-exec-json-failed-0.171.0.jsonl');
const key = { OPENAI_API_KEY: 'sk-test-0123456789abcdef' };

let restoreGit: () => void;
let run: TemporaryRun;
beforeAll(() => {
  restoreGit = isolateGitConfiguration();
});
afterAll(() => restoreGit());
beforeEach(() => {
  run = createTemporaryRun();
});
afterEach(() => run.cleanup());

function fakeCodex(scenario: CreateFakeCliOptions['scenario'], version = 'codex-cli 0.171.0'): FakeCli {
  return createFakeCli({ directory: run.binDirectory, name: 'codex', version, scenario });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the Codex coder with a stand-in codex', () => {
  it('runs hermetically: private CODEX_HOME with snodo instructions, the key as CODEX_API_KEY', async () => {
    const cli = fakeCodex({
      instructionsMarker: 'instructions-marker-7f3a',
      steps: [{ writeFile: { path: 'greeting.txt', content: 'hello\n' } }, { stdout: success }],
    });
    const request = run.request({
      credentials: key,
      parentEnv: {
        ...process.env,
        OPENAI_BASE_URL: 'http://inherited.invalid/v1',
        ANTHROPIC_API_KEY: 'other',
      },
    });
    const result = await createCodexCoder().doRun(request);

    const record = cli.readRecord();
    const codexHome = path.join(run.stateDirectory, 'codex-home');
    expect(record?.env).toMatchObject({
      CODEX_HOME: codexHome,
      CODEX_API_KEY: key.OPENAI_API_KEY,
      OPENAI_API_KEY: key.OPENAI_API_KEY,
      HOME: run.home,
    });
    expect(record?.env.OPENAI_BASE_URL).toBeUndefined();
    expect(record?.env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(record?.argv.slice(0, 5)).toEqual([
      'exec',
      '--json',
      '--dangerously-bypass-approvals-and-sandbox',
      '-C',
      run.workspace,
    ]);
    // Codex reads $CODEX_HOME/AGENTS.md besides the repository's own AGENTS.md.
    expect(readFileSync(path.join(codexHome, 'AGENTS.md'), 'utf8')).toContain('instructions-marker-7f3a');
    expect(readFileSync(path.join(codexHome, 'config.toml'), 'utf8')).not.toContain('model_provider');
    expect(record?.instructions?.length).toBeGreaterThan(0);
    expect(run.git(['status', '--porcelain', '--untracked-files=all'])).toBe('');

    expect(result).toMatchObject({
      status: 'changed',
      changedFiles: ['greeting.txt'],
      cliVersion: '0.171.0',
      usage: {
        inputTokens: 800,
        outputTokens: 85,
        cachedInputTokens: 1900,
        costUsd: null,
        source: 'reported',
      },
    });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps CODEX_API_KEY when that is the variable given', async () => {
    const cli = fakeCodex({ steps: [{ stdout: success }] });
    await createCodexCoder().doRun(run.request({ credentials: { CODEX_API_KEY: 'sk-codex-0123456789' } }));
    expect(cli.readRecord()?.env.CODEX_API_KEY).toBe('sk-codex-0123456789');
    expect(cli.readRecord()?.env.OPENAI_API_KEY).toBeUndefined();
  });

  it('declares a custom Responses provider for its own base_url, authenticated with CODEX_API_KEY', async () => {
    fakeCodex({ steps: [{ stdout: success }] });
    await createCodexCoder().doRun(
      run.request({ credentials: key, overrides: { coderConfig: { base_url: 'http://127.0.0.1:9/v1' } } }),
    );
    const toml = readFileSync(path.join(run.stateDirectory, 'codex-home', 'config.toml'), 'utf8');
    expect(toml).toContain('model_provider = "snodo"');
    expect(toml).toContain('[model_providers.snodo]');
    expect(toml).toContain('base_url = "http://127.0.0.1:9/v1"');
    expect(toml).toContain('env_key = "CODEX_API_KEY"');
    expect(toml).toContain('wire_api = "responses"');
  });

  it('refuses a base_url that is not an http(s) URL before starting anything', async () => {
    const cli = fakeCodex({ steps: [{ stdout: success }] });
    const running = createCodexCoder().doRun(
      run.request({ credentials: key, overrides: { coderConfig: { base_url: 42 } } }),
    );
    await expect(running).rejects.toMatchObject({ code: 'CODER_CONFIG_INVALID', setting: 'base_url' });
    expect(cli.readRecord()).toBeUndefined();
    expect(existsSync(path.join(run.stateDirectory, 'codex-home'))).toBe(false);
  });

  it('fails with the turn.failed message, which Codex prints on stdout, not stderr', async () => {
    fakeCodex({
      steps: [{ stderr: 'Reading additional input from stdin...\n' }, { stdout: failure }],
      exitCode: 1,
    });
    const running = createCodexCoder().doRun(run.request({ credentials: key }));
    await expect(running).rejects.toMatchObject({ code: 'CODER_FAILED', exitCode: 1 });
    await expect(running).rejects.toThrow(/exited with code 1: unexpected status 401 Unauthorized/);
  });

  it('fails on a turn.failed even when Codex exits 0', async () => {
    fakeCodex({ steps: [{ stdout: failure }] });
    await expect(createCodexCoder().doRun(run.request({ credentials: key }))).rejects.toThrow(
      /reported a failed turn: unexpected status 401/,
    );
  });

  it('stops a Codex that hangs after turn.completed, keeps the usage and commits the change', async () => {
    const cli = fakeCodex({
      steps: [{ writeFile: { path: 'greeting.txt', content: 'hello\n' } }, { stdout: success }],
      ignoreSigterm: true,
      hang: true,
    });
    const coder = createCodexCoder({ finalEventGraceMs: 200, killGraceMs: 200 });
    const result = await coder.doRun(
      run.request({ credentials: key, overrides: { model: 'codex/gpt-5.5' } }),
    );

    expect(result).toMatchObject({
      status: 'changed',
      changedFiles: ['greeting.txt'],
      cliVersion: '0.171.0',
    });
    expect(result.usage).toMatchObject({ inputTokens: 800, outputTokens: 85, cachedInputTokens: 1900 });
    expect(result.argv).toContain('gpt-5.5');
    expect(readFileSync(run.transcriptPath, 'utf8')).toContain(
      "stopped by snodo after the CLI's final event",
    );
    for (const pid of cli.readProcessIds().cli) expect(isAlive(pid)).toBe(false);
  });

  it('fails, not succeeds, when the hanging Codex had reported a failed turn', async () => {
    fakeCodex({ steps: [{ stdout: failure }], hang: true });
    const coder = createCodexCoder({ finalEventGraceMs: 200, killGraceMs: 200 });
    await expect(coder.doRun(run.request({ credentials: key }))).rejects.toMatchObject({
      code: 'CODER_FAILED',
      message: expect.stringContaining('401 Unauthorized'),
    });
  });

  it('refuses a codex outside the verified versions before touching the worktree', async () => {
    const cli = fakeCodex({ steps: [{ stdout: success }] }, 'codex-cli 0.99.0');
    const coder = createCodexCoder();
    const request = run.request({ credentials: key });
    await expect(coder.checkAvailability({ env: request.env })).resolves.toMatchObject({
      ready: false,
      version: '0.99.0',
      versionSupported: false,
    });
    await expect(coder.doRun(request)).rejects.toMatchObject({ code: 'CODER_CLI_VERSION_UNSUPPORTED' });
    expect(cli.readRecord()).toBeUndefined();
  });

  it('names both key variables and `snodo config add openai` when no key is set', async () => {
    fakeCodex({ steps: [{ stdout: success }] });
    const request = run.request({ credentials: {}, parentEnv: { PATH: process.env.PATH } });
    const availability = await createCodexCoder().checkAvailability({ env: request.env });
    expect(availability).toMatchObject({ ready: false, credentials: 'missing' });
    expect(availability.reason).toContain('CODEX_API_KEY or OPENAI_API_KEY');
    expect(availability.fix).toContain('snodo config add openai');
  });
});
