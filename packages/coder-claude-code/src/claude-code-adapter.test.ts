import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type CreateFakeCliOptions, createFakeCli, type FakeCli } from '@snodo/conformance/fake-cli';
import { createTemporaryRun, isolateGitConfiguration, type TemporaryRun } from '@snodo/conformance/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeCodeCoder } from './claude-code-adapter.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const success = fixture('claude-code-stream-json-2.1.332.jsonl');
const failure = fixture('claude-code-stream-json-error-2.1.332.jsonl');
const key = { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef' };

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

function fakeClaude(scenario: CreateFakeCliOptions['scenario'], version = '2.1.332 (Claude Code)'): FakeCli {
  return createFakeCli({ directory: run.binDirectory, name: 'claude', version, scenario });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the Claude Code coder with a stand-in claude', () => {
  // A real CLI (or a node stand-in) starts here: seconds on a loaded 2-core machine, over vitest's 5 s.
  it('runs hermetically: private config dir in the job directory, no nesting guard, no inherited base URL', {
    timeout: 30_000,
  }, async () => {
    const cli = fakeClaude({
      instructionsMarker: 'instructions-marker-7f3a',
      steps: [{ writeFile: { path: 'greeting.txt', content: 'hello\n' } }, { stdout: success }],
    });
    const request = run.request({
      credentials: key,
      parentEnv: {
        ...process.env,
        CLAUDECODE: '1',
        CLAUDE_CODE_ENTRYPOINT: 'cli',
        ANTHROPIC_BASE_URL: 'http://inherited.invalid',
        OPENAI_API_KEY: 'sk-other-tool',
      },
    });
    const result = await createClaudeCodeCoder().doRun(request);

    const record = cli.readRecord();
    const configDirectory = path.join(run.stateDirectory, 'claude-code-home');
    expect(record?.env).toMatchObject({
      CLAUDE_CONFIG_DIR: configDirectory,
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      HOME: run.home,
      ANTHROPIC_API_KEY: key.ANTHROPIC_API_KEY,
    });
    const leaked = Object.keys(record?.env ?? {}).filter(
      (name) => name === 'CLAUDECODE' || name.startsWith('CLAUDE_CODE_ENTRY') || name.endsWith('_BASE_URL'),
    );
    expect(leaked).toEqual([]);
    expect(record?.env.OPENAI_API_KEY).toBeUndefined();
    expect(existsSync(configDirectory)).toBe(true);
    expect(record?.cwd).toBe(run.workspace);

    expect(record?.instructions).toEqual([{ via: 'workspace', path: 'CLAUDE.local.md' }]);
    expect(run.git(['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(run.git(['show', '--name-only', '--format=', 'HEAD']).trim()).toBe('greeting.txt');

    expect(result).toMatchObject({
      status: 'changed',
      changedFiles: ['greeting.txt'],
      cliVersion: '2.1.332',
      usage: { inputTokens: 800, outputTokens: 85, cachedInputTokens: 1900, costUsd: 0.00447 },
    });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(readFileSync(run.transcriptPath, 'utf8')).toContain('"type":"result"');
  });

  it('passes ANTHROPIC_BASE_URL only from its own base_url setting', async () => {
    const cli = fakeClaude({ steps: [{ stdout: success }] });
    await createClaudeCodeCoder().doRun(
      run.request({
        credentials: key,
        overrides: { coderConfig: { base_url: 'http://127.0.0.1:9/gateway' } },
      }),
    );
    expect(cli.readRecord()?.env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9/gateway');
  });

  it('refuses a base_url that is not an http(s) URL before starting anything', async () => {
    const cli = fakeClaude({ steps: [{ stdout: success }] });
    const running = createClaudeCodeCoder().doRun(
      run.request({ credentials: key, overrides: { coderConfig: { base_url: 'file:///etc/passwd' } } }),
    );
    await expect(running).rejects.toMatchObject({ code: 'CODER_CONFIG_INVALID', setting: 'base_url' });
    expect(cli.readRecord()).toBeUndefined();
    expect(existsSync(run.transcriptPath)).toBe(false);
  });

  it('fails with the message of an error result, which Claude Code prints on stdout, not stderr', async () => {
    fakeClaude({
      steps: [{ writeFile: { path: 'half.txt', content: 'x\n' } }, { stdout: failure }],
      exitCode: 1,
    });
    const running = createClaudeCodeCoder().doRun(run.request({ credentials: key }));
    await expect(running).rejects.toMatchObject({ code: 'CODER_FAILED', exitCode: 1 });
    await expect(running).rejects.toThrow(/exited with code 1: Invalid API key · Fix external API key/);
    expect(run.git(['rev-list', '--count', 'HEAD'])).toBe('1\n');
  });

  it('fails on an error result even when Claude Code exits 0', async () => {
    fakeClaude({ steps: [{ stdout: failure }] });
    const running = createClaudeCodeCoder().doRun(run.request({ credentials: key }));
    await expect(running).rejects.toThrow(/reported an error: Invalid API key/);
  });

  it('stops a Claude Code that hangs after its result, keeps the result and commits the change', async () => {
    const cli = fakeClaude({
      steps: [{ writeFile: { path: 'greeting.txt', content: 'hello\n' } }, { stdout: success }],
      ignoreSigterm: true,
      hang: true,
    });
    const coder = createClaudeCodeCoder({ finalEventGraceMs: 200, killGraceMs: 200 });
    const result = await coder.doRun(run.request({ credentials: key }));

    expect(result).toMatchObject({
      status: 'changed',
      changedFiles: ['greeting.txt'],
      cliVersion: '2.1.332',
    });
    expect(result.usage).toMatchObject({ inputTokens: 800, outputTokens: 85, costUsd: 0.00447 });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(readFileSync(run.transcriptPath, 'utf8')).toContain(
      "stopped by snodo after the CLI's final event",
    );
    for (const pid of cli.readProcessIds().cli) expect(isAlive(pid)).toBe(false);
  });

  it('fails, not succeeds, when the hanging Claude Code had reported an error', async () => {
    fakeClaude({ steps: [{ stdout: failure }], hang: true });
    const coder = createClaudeCodeCoder({ finalEventGraceMs: 200, killGraceMs: 200 });
    await expect(coder.doRun(run.request({ credentials: key }))).rejects.toMatchObject({
      code: 'CODER_FAILED',
      message: expect.stringContaining('Invalid API key'),
    });
  });

  it('reports a user abort during the grace as CODER_ABORTED, not as success', async () => {
    fakeClaude({ steps: [{ stdout: success }], hang: true });
    const controller = new AbortController();
    const coder = createClaudeCodeCoder({ finalEventGraceMs: 60_000, killGraceMs: 200 });
    const running = coder.doRun(
      run.request({ credentials: key, overrides: { abortSignal: controller.signal } }),
    );
    setTimeout(() => controller.abort(), 500);
    await expect(running).rejects.toMatchObject({ code: 'CODER_ABORTED' });
  });

  it('refuses a claude outside the verified versions before touching the worktree', async () => {
    const cli = fakeClaude({ steps: [{ stdout: success }] }, '2.0.77 (Claude Code)');
    const coder = createClaudeCodeCoder();
    const request = run.request({ credentials: key });
    await expect(coder.checkAvailability({ env: request.env })).resolves.toMatchObject({
      ready: false,
      version: '2.0.77',
      versionSupported: false,
    });
    await expect(coder.doRun(request)).rejects.toMatchObject({ code: 'CODER_CLI_VERSION_UNSUPPORTED' });
    expect(cli.readRecord()).toBeUndefined();
    expect(existsSync(path.join(run.workspace, 'CLAUDE.local.md'))).toBe(false);
  });

  it('names ANTHROPIC_API_KEY and `snodo config add anthropic` when no key is set', async () => {
    fakeClaude({ steps: [{ stdout: success }] });
    const request = run.request({ credentials: {}, parentEnv: { PATH: process.env.PATH } });
    await expect(createClaudeCodeCoder().checkAvailability({ env: request.env })).resolves.toMatchObject({
      ready: false,
      credentials: 'missing',
      fix: expect.stringContaining('snodo config add anthropic'),
    });
  });
});
