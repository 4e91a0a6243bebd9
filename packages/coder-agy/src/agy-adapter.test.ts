import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestWorkspace, type TestWorkspace } from '@snodo/conformance/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgyCoder } from './agy-adapter.js';

const fakeAgy = fileURLToPath(new URL('./__fixtures__/fake-agy.mjs', import.meta.url));

let workspace: TestWorkspace;
let scriptPath: string;
let recordPath: string;

/** Puts the documented-behaviour fake on PATH as `agy`, doing what `script` says. */
function installFakeAgy(script: Record<string, unknown>): void {
  writeFileSync(scriptPath, JSON.stringify(script));
  const wrapper = path.join(workspace.binDirectory, 'agy');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(fakeAgy)} "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
}

const fakeEnv = () => ({ FAKE_AGY_SCRIPT: scriptPath, FAKE_AGY_RECORD: recordPath });
const readRecord = () =>
  JSON.parse(readFileSync(recordPath, 'utf8')) as {
    argv: string[];
    cwd: string;
    prompt: string;
    rules: string[];
  };

beforeEach(() => {
  workspace = createTestWorkspace();
  scriptPath = path.join(workspace.root, 'agy-script.json');
  recordPath = path.join(workspace.root, 'agy-record.json');
});
afterEach(() => workspace.cleanup());

describe('Antigravity CLI coder against a fake agy that behaves as documented', () => {
  it('edits the worktree through --add-dir and reads usage and the conversation id from the envelope', async () => {
    installFakeAgy({ writeFile: { path: 'hello.txt', content: 'hello from agy\n' } });
    const prompt = '--add a greeting\nwith "quotes"';
    const result = await createAgyCoder().doRun(
      workspace.request({ prompt, model: 'agy/gemini-3-pro', env: fakeEnv(), timeoutMs: 120_000 }),
    );

    expect(result.status).toBe('changed');
    expect(workspace.git(['show', 'HEAD:hello.txt'])).toBe('hello from agy\n');
    expect(result.usage).toEqual({
      inputTokens: 1800,
      outputTokens: 184,
      cachedInputTokens: 600,
      costUsd: null,
      source: 'reported',
      model: 'gemini-3-pro',
    });
    expect(result.sessionId).toBe('3b4a1d20-3968-4ed2-90b3-00eea3060b02');
    expect(result.cliVersion).toBe('1.2.14');
    const record = readRecord();
    expect(record.prompt).toBe(prompt);
    expect(record.rules.join('')).toContain('SNODO-TEST-INSTRUCTIONS');
    expect(workspace.git(['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(record.argv).toEqual([
      '--output-format=json',
      '--dangerously-skip-permissions',
      '--add-dir',
      workspace.workspace,
      '--model=gemini-3-pro',
      '--print-timeout=180s',
      '-p',
      prompt,
    ]);
    expect(existsSync(path.join(workspace.home, '.gemini'))).toBe(false);
  });

  it('never passes an inherited base URL', async () => {
    installFakeAgy({});
    const dump = path.join(workspace.root, 'env.json');
    writeFileSync(
      path.join(workspace.binDirectory, 'agy'),
      `#!/bin/sh\nif [ "$1" != "--version" ]; then env > ${JSON.stringify(dump)}; fi\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(fakeAgy)} "$@"\n`,
    );
    await createAgyCoder().doRun(
      workspace.request({ env: { ...fakeEnv(), GOOGLE_GEMINI_BASE_URL: 'http://inherited.invalid' } }),
    );
    expect(readFileSync(dump, 'utf8')).not.toContain('GOOGLE_GEMINI_BASE_URL');
  });

  it("turns an ERROR envelope into CODER_FAILED carrying agy's message, and commits nothing", async () => {
    installFakeAgy({ status: 'ERROR', error: 'RESOURCE_EXHAUSTED: quota exceeded', writeFile: undefined });
    await expect(createAgyCoder().doRun(workspace.request({ env: fakeEnv() }))).rejects.toMatchObject({
      code: 'CODER_FAILED',
      exitCode: 1,
      message: expect.stringContaining('RESOURCE_EXHAUSTED: quota exceeded'),
    });
    expect(workspace.git(['rev-list', '--count', 'HEAD']).trim()).toBe('1');
  });

  it('fails when agy prints no envelope instead of guessing what it did', async () => {
    writeFileSync(scriptPath, '{}');
    const wrapper = path.join(workspace.binDirectory, 'agy');
    writeFileSync(wrapper, '#!/bin/sh\n[ "$1" = "--version" ] && echo 1.2.14\nexit 0\n');
    chmodSync(wrapper, 0o755);
    await expect(createAgyCoder().doRun(workspace.request({ env: fakeEnv() }))).rejects.toMatchObject({
      code: 'CODER_FAILED',
      message: expect.stringContaining('printed no JSON result'),
    });
  });

  it('stops agy when it hangs after its envelope and keeps the result', async () => {
    installFakeAgy({ writeFile: { path: 'hello.txt', content: 'hi\n' }, hangAfterOutput: true });
    const result = await createAgyCoder({ finalEventGraceMs: 200, killGraceMs: 200 }).doRun(
      workspace.request({ env: fakeEnv() }),
    );
    expect(result.status).toBe('changed');
    expect(result.sessionId).toBe('3b4a1d20-3968-4ed2-90b3-00eea3060b02');
    expect(readFileSync(workspace.transcriptPath, 'utf8')).toContain(
      "stopped by snodo after the CLI's final event",
    );
  });

  it('refuses agy older than 1.1.8 (no JSON output, silent without a terminal)', async () => {
    installFakeAgy({});
    const coder = createAgyCoder();
    const env = { ...workspace.request().env, ...fakeEnv(), AGY_FAKE_VERSION: '1.1.2' };
    expect(await coder.checkAvailability({ env })).toMatchObject({ ready: false, versionSupported: false });
    await expect(
      coder.doRun(workspace.request({ env: { ...fakeEnv(), AGY_FAKE_VERSION: '1.1.2' } })),
    ).rejects.toMatchObject({
      code: 'CODER_CLI_VERSION_UNSUPPORTED',
    });
  });

  it('is ready without a key: agy signs in with its own Google login', async () => {
    installFakeAgy({});
    expect(await createAgyCoder().checkAvailability({ env: workspace.request().env })).toMatchObject({
      ready: true,
      credentials: 'cli-login',
    });
  });
});

describe('the fake agy itself follows the documented rules', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [fakeAgy, ...args], {
      cwd: workspace.workspace,
      env: { PATH: process.env.PATH ?? '', HOME: workspace.home, ...env },
      input: 'stdin is never read',
      encoding: 'utf8',
    });

  it('takes the prompt only as the last value of -p', () => {
    expect(run(['--output-format=json', 'do it']).status).toBe(2);
    expect(run(['-p', 'do it', '--output-format=json']).stderr).toContain(
      'the prompt must be the value of -p',
    );
    expect(run(['--output-format=json', '-p', 'do it']).status).toBe(0);
  });

  it('needs "=" for enum flags', () => {
    expect(run(['--output-format', 'json', '-p', 'x']).stderr).toContain('needs a value with "="');
  });

  it('writes into its scratch directory without --add-dir, and refuses writes without skipping permissions', () => {
    writeFileSync(scriptPath, JSON.stringify({ writeFile: { path: 'a.txt', content: 'a\n' } }));
    run(['--dangerously-skip-permissions', '--output-format=json', '-p', 'x'], {
      FAKE_AGY_SCRIPT: scriptPath,
    });
    expect(existsSync(path.join(workspace.home, '.gemini/antigravity-cli/scratch/a.txt'))).toBe(true);
    expect(existsSync(path.join(workspace.workspace, 'a.txt'))).toBe(false);
    const refused = run(['--add-dir', workspace.workspace, '--output-format=json', '-p', 'x'], {
      FAKE_AGY_SCRIPT: scriptPath,
    });
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 'ERROR' });
    expect(
      execFileSync('git', ['status', '--porcelain'], { cwd: workspace.workspace, encoding: 'utf8' }),
    ).toBe('');
  });
});
