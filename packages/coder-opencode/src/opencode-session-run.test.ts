import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpencodeCoder } from './opencode-adapter.js';
import type { FakeOpencodeScenario } from './testing/fake-opencode-scenario.js';
import { type FakeOpencodeServer, startFakeOpencodeServer } from './testing/fake-opencode-server.js';
import {
  createTestRepository,
  isolateGitConfiguration,
  makeRequest,
  type TestRepository,
} from './testing/test-repository.js';

/**
 * The session flow against a fake OpenCode 1.x server, through the `url` runtime (a server snodo did not
 * start): what happens on the wire, in the worktree and in the result.
 */
let restoreGit: () => void;
beforeAll(() => {
  restoreGit = isolateGitConfiguration();
});
afterAll(() => restoreGit());

const password = 'fake-server-password-123';
let repository: TestRepository;
let server: FakeOpencodeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  repository?.cleanup();
});

async function setUp(scenario: FakeOpencodeScenario, options: { password?: string } = { password }) {
  repository = createTestRepository();
  server = await startFakeOpencodeServer({ scenario, ...options });
  const coder = createOpencodeCoder({
    config: { runtime: 'url', url: server.url },
    pollIntervalMs: 100,
    requestTimeoutMs: 2000,
  });
  const request = (overrides: Parameters<typeof makeRequest>[1] = {}) =>
    makeRequest(repository, {
      parentEnv: { ...process.env, OPENCODE_SERVER_PASSWORD: password },
      coderConfig: { env: { OPENCODE_SERVER_PASSWORD: password } },
      ...overrides,
    });
  return { coder, request, server };
}

/** The request env core builds includes `coders.opencode.env`; the helper's allow-list would drop it. */
function withServerPassword<T extends { env: Readonly<Record<string, string>> }>(request: T): T {
  return { ...request, env: { ...request.env, OPENCODE_SERVER_PASSWORD: password } };
}

const writeHello: FakeOpencodeScenario = {
  prompt: {
    kind: 'write-files',
    files: [{ path: 'hello.txt', content: 'hello from OpenCode\n' }],
    text: 'I wrote hello.txt.',
    tokens: { input: 100, output: 20, reasoning: 5, cache: { read: 30, write: 10 } },
    cost: 0.0125,
  },
};

describe('the opencode coder against a running server (url runtime)', { timeout: 30_000 }, () => {
  it('prompts a new session in the worktree, waits for idle, commits the change once and reports usage', async () => {
    const { coder, request, server } = await setUp(writeHello);
    const sent = withServerPassword(request({ model: 'opencode/anthropic/claude-sonnet-4-5' }));
    const result = await coder.doRun(sent);

    expect(result.status).toBe('changed');
    expect(result.changedFiles).toEqual(['hello.txt']);
    expect(repository.git(['show', 'HEAD:hello.txt'])).toBe('hello from OpenCode\n');
    expect(repository.git(['rev-list', '--count', `${repository.startCommit}..HEAD`]).trim()).toBe('1');
    expect(repository.git(['log', '-1', '--format=%B'])).toContain('Snodo-Coder: opencode@1.18.33');
    expect(result.cliVersion).toBe('1.18.33');
    expect(result.sessionId).toMatch(/^ses_/);
    expect(result.usage).toEqual({
      inputTokens: 110,
      outputTokens: 25,
      cachedInputTokens: 30,
      costUsd: 0.0125,
      source: 'reported',
      model: 'anthropic/claude-sonnet-4-5',
    });
    expect(sent.events.some((event) => event.type === 'usage')).toBe(true);

    const routes = server.requests.map((entry) => `${entry.method} ${entry.path}`);
    expect(routes.indexOf('GET /event')).toBeLessThan(routes.indexOf('POST /session'));
    const prompt = server.requests.find((entry) => entry.path.endsWith('/prompt_async'));
    expect(prompt?.body).toEqual({
      parts: [{ type: 'text', text: sent.prompt }],
      model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' },
    });
    const sessionCalls = server.requests.filter((entry) => entry.path.startsWith('/session'));
    expect(sessionCalls.every((entry) => entry.directory === repository.workspace)).toBe(true);
    expect(server.requests.every((entry) => entry.authorized)).toBe(true);
    expect(routes).toContain(`DELETE /session/${result.sessionId}`);
    expect(server.liveSessions()).toEqual([]);

    const transcript = readFileSync(sent.transcriptPath, 'utf8');
    expect(transcript).toContain('[assistant] I wrote hello.txt.');
    expect(transcript).not.toContain(password);
    expect(repository.git(['status', '--porcelain'])).toBe('');
  });

  it('sends no model when the run names none, so the server uses its own default', async () => {
    const { coder, request, server } = await setUp(writeHello);
    await coder.doRun(withServerPassword(request()));
    const prompt = server.requests.find((entry) => entry.path.endsWith('/prompt_async'));
    expect(prompt?.body).toEqual({ parts: [{ type: 'text', text: expect.any(String) }] });
  });

  it('refuses a model without a provider before touching the server', async () => {
    const { coder, request, server } = await setUp(writeHello);
    await expect(
      coder.doRun(withServerPassword(request({ model: 'claude-sonnet-4-5' }))),
    ).rejects.toMatchObject({
      code: 'CODER_CONFIG_INVALID',
      message: expect.stringContaining('provider/model'),
    });
    expect(server.requests).toEqual([]);
  });

  it('finishes by polling the status when the idle event never comes', async () => {
    const { coder, request } = await setUp({ ...writeHello, idleEvents: false });
    const sent = withServerPassword(request());
    const result = await coder.doRun(sent);
    expect(result.status).toBe('changed');
    expect(readFileSync(sent.transcriptPath, 'utf8')).toContain('the status poll found the session finished');
  });

  it('finishes when the answer is final even though the status still says busy', async () => {
    const { coder, request } = await setUp({ ...writeHello, idleEvents: false, statusStuckBusy: true });
    const result = await coder.doRun(withServerPassword(request()));
    expect(result.status).toBe('changed');
  });

  it('turns a session.error event into CODER_FAILED carrying the error, and commits nothing', async () => {
    const { coder, request, server } = await setUp({
      prompt: { kind: 'error', name: 'APIError', message: 'rate limited by the provider' },
    });
    await expect(coder.doRun(withServerPassword(request()))).rejects.toMatchObject({
      code: 'CODER_FAILED',
      message: expect.stringContaining('APIError: rate limited by the provider'),
    });
    expect(repository.git(['rev-parse', 'HEAD']).trim()).toBe(repository.startCommit);
    expect(server.liveSessions()).toEqual([]);
  });

  it('stops a session that never finishes at the wall-clock limit: CODER_TIMEOUT, aborted and deleted', async () => {
    const { coder, request, server } = await setUp({ prompt: { kind: 'hang' } });
    await expect(coder.doRun(withServerPassword(request({ timeoutMs: 1500 })))).rejects.toMatchObject({
      code: 'CODER_TIMEOUT',
      limit: 'wall-clock',
    });
    const routes = server.requests.map((entry) => `${entry.method} ${entry.path}`);
    expect(routes.some((route) => route.startsWith('POST /session/') && route.endsWith('/abort'))).toBe(true);
    expect(server.liveSessions()).toEqual([]);
  });

  it('stops a session without progress at the idle limit', async () => {
    const { coder, request } = await setUp({ prompt: { kind: 'hang' } });
    await expect(coder.doRun(withServerPassword(request({ idleTimeoutMs: 600 })))).rejects.toMatchObject({
      code: 'CODER_TIMEOUT',
      limit: 'idle',
    });
  });

  it('aborts the session when the run is cancelled: CODER_ABORTED', async () => {
    const { coder, request, server } = await setUp({ prompt: { kind: 'hang' } });
    const controller = new AbortController();
    const running = coder.doRun(withServerPassword(request({ abortSignal: controller.signal })));
    await waitFor(() => server.requests.some((entry) => entry.path.endsWith('/prompt_async')));
    controller.abort(new Error('user pressed Ctrl-C'));
    await expect(running).rejects.toMatchObject({ code: 'CODER_ABORTED' });
    expect(server.requests.some((entry) => entry.path.endsWith('/abort'))).toBe(true);
  });

  it('names the server when it dies mid-run: CODER_FAILED, not a hang', async () => {
    const { coder, request } = await setUp({
      prompt: { kind: 'die', files: [{ path: 'half.txt', content: 'half done\n' }] },
    });
    const error = await coder.doRun(withServerPassword(request())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CODER_FAILED' });
    expect((error as Error).message).toMatch(/lost the OpenCode server at http:\/\/127\.0\.0\.1:\d+ mid-run/);
    expect(repository.git(['rev-parse', 'HEAD']).trim()).toBe(repository.startCommit);
  });

  it('fails fast when the server asks for a permission nobody can grant', async () => {
    const { coder, request } = await setUp({ prompt: { kind: 'ask-permission', permission: 'webfetch' } });
    await expect(coder.doRun(withServerPassword(request()))).rejects.toMatchObject({
      code: 'CODER_FAILED',
      message: expect.stringContaining('asked for permission "webfetch"'),
    });
  });

  it('refuses an OpenCode 2.x server with a message about the V1 API, before creating a session', async () => {
    const { coder, request, server } = await setUp({ api: 'v2', prompt: { kind: 'hang' } });
    const error = await coder.doRun(withServerPassword(request())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CODER_CLI_VERSION_UNSUPPORTED', foundVersion: '2.0.3' });
    expect((error as Error).message).toContain('V1 server API of OpenCode 1.x');
    expect(server.requests.map((entry) => entry.path)).not.toContain('/session');
  });

  it('refuses a server that reports a 2.x version on its health route', async () => {
    const { coder, request } = await setUp({ version: '2.1.0', prompt: { kind: 'hang' } });
    await expect(coder.doRun(withServerPassword(request()))).rejects.toMatchObject({
      code: 'CODER_CLI_VERSION_UNSUPPORTED',
      foundVersion: '2.1.0',
    });
  });

  it('says to set the password when the server refuses snodo', async () => {
    const { coder, request } = await setUp(writeHello);
    const wrong = { ...request(), env: { ...request().env, OPENCODE_SERVER_PASSWORD: 'not-the-password' } };
    await expect(coder.doRun(wrong)).rejects.toMatchObject({
      code: 'CODER_FAILED',
      message: expect.stringContaining('OPENCODE_SERVER_PASSWORD'),
    });
    expect(existsSync(path.join(repository.workspace, 'hello.txt'))).toBe(false);
  });
});

describe('checkAvailability with the url runtime', { timeout: 30_000 }, () => {
  it('is ready for a 1.x server and reports its version', async () => {
    const { server } = await setUp(writeHello, {});
    const coder = createOpencodeCoder({ config: { runtime: 'url', url: server.url } });
    await expect(coder.checkAvailability({ env: {} })).resolves.toMatchObject({
      ready: true,
      version: '1.18.33',
      credentials: 'not-needed',
    });
  });

  it('is not ready, with the fix, when nothing answers or a 2.x server answers', async () => {
    const { server } = await setUp({ api: 'v2', prompt: { kind: 'hang' } }, {});
    const v2 = await createOpencodeCoder({ config: { runtime: 'url', url: server.url } }).checkAvailability({
      env: {},
    });
    expect(v2).toMatchObject({ ready: false, versionSupported: false, version: '2.0.3' });
    await server.close();
    const gone = await createOpencodeCoder({ config: { runtime: 'url', url: server.url } }).checkAvailability(
      { env: {} },
    );
    expect(gone).toMatchObject({ ready: false, installed: true });
    expect(gone.reason).toContain(`no OpenCode server answers at ${server.url}`);
    expect(gone.fix).toContain('opencode serve');
  });
});

async function waitFor(condition: () => boolean, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
