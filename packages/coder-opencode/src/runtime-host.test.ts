import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpencodeCoder } from './opencode-adapter.js';
import { writeFakeOpencode } from './testing/fake-executables.js';
import type { FakeOpencodeScenario } from './testing/fake-opencode-scenario.js';
import {
  createTestRepository,
  isolateGitConfiguration,
  makeRequest,
  type TestRepository,
} from './testing/test-repository.js';

/**
 * The host runtime end to end with a fake `opencode` executable that starts the fake server as a real
 * process: argv, environment, address reading, process group, clean-up.
 */
let restoreGit: () => void;
beforeAll(() => {
  restoreGit = isolateGitConfiguration();
});
afterAll(() => restoreGit());

let repository: TestRepository;
afterEach(() => repository?.cleanup());

interface ProcessRecord {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  pid: number;
}

function setUp(scenario: Omit<FakeOpencodeScenario, 'processRecord' | 'requestLog'>) {
  repository = createTestRepository();
  const processRecord = path.join(repository.root, 'server-process.json');
  const requestLog = path.join(repository.root, 'requests.jsonl');
  writeFakeOpencode(repository.binDirectory, { ...scenario, processRecord, requestLog });
  const coder = createOpencodeCoder({
    config: {
      provider_config: {
        mock: {
          npm: '@ai-sdk/openai-compatible',
          options: { baseURL: 'http://127.0.0.1:9/v1' },
          models: { m: {} },
        },
      },
    },
    killGraceMs: 500,
    pollIntervalMs: 100,
    startupTimeoutMs: 20_000,
  });
  return {
    coder,
    record: () => JSON.parse(readFileSync(processRecord, 'utf8')) as ProcessRecord,
    requests: () =>
      readFileSync(requestLog, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { method: string; path: string; authorized: boolean }),
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\S+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 5000; waited += 50) {
    if (!isRunning(pid)) return true;
    await delay(50);
  }
  return false;
}

const writeHello: FakeOpencodeScenario['prompt'] = {
  kind: 'write-files',
  files: [{ path: 'hello.txt', content: 'hello from a host server\n' }],
};

describe('the host runtime', { timeout: 30_000 }, () => {
  it('starts `opencode serve` on a free loopback port with a private, hermetic environment and stops it', async () => {
    const { coder, record, requests } = setUp({ prompt: writeHello });
    process.env.SNODO_TEST_CANARY_SECRET = 'canary-must-not-reach-the-server';
    let request: ReturnType<typeof makeRequest>;
    try {
      request = makeRequest(repository, { model: 'opencode/mock/m' });
      const result = await coder.doRun(request);
      expect(result.status).toBe('changed');
      expect(result.argv).toEqual([
        path.join(repository.binDirectory, 'opencode'),
        'serve',
        '--hostname',
        '127.0.0.1',
        '--port',
        '0',
      ]);
    } finally {
      delete process.env.SNODO_TEST_CANARY_SECRET;
    }

    const server = record();
    expect(server.argv).toEqual(['serve', '--hostname', '127.0.0.1', '--port', '0']);
    expect(server.cwd).toBe(repository.workspace);
    expect(Object.values(server.env)).not.toContain('canary-must-not-reach-the-server');
    const password = server.env.OPENCODE_SERVER_PASSWORD ?? '';
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect(requests().every((entry) => entry.authorized)).toBe(true);
    expect(server.env.OPENCODE_DISABLE_AUTOUPDATE).toBe('true');
    expect(server.env.OPENCODE_DISABLE_MODELS_FETCH).toBe('true');
    // Private XDG directories in the job's coder state directory (writable inside the sandbox), kept.
    const xdg = server.env.XDG_DATA_HOME ?? '';
    expect(xdg).toBe(path.join(repository.jobDirectory, 'coder', 'opencode-server', 'data'));
    expect(existsSync(path.dirname(xdg))).toBe(true);
    const config = JSON.parse(server.env.OPENCODE_CONFIG_CONTENT ?? '{}');
    expect(config).toMatchObject({
      model: 'mock/m',
      small_model: 'mock/m',
      provider: { mock: { npm: '@ai-sdk/openai-compatible' } },
      permission: { edit: 'allow', bash: 'allow', webfetch: 'deny', question: 'deny' },
      instructions: [path.join(repository.workspace, '.snodo-instructions.md')],
      autoupdate: false,
    });

    expect(await waitUntilGone(server.pid)).toBe(true);
    const transcript = readFileSync(request.transcriptPath, 'utf8');
    expect(transcript).toContain('[server] opencode server listening on http://127.0.0.1:');
    expect(transcript).not.toContain(password);
  });

  it('names the server and its exit when it dies mid-run', async () => {
    const { coder, record } = setUp({ prompt: { kind: 'die' } });
    const error = await coder.doRun(makeRequest(repository)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CODER_FAILED' });
    const message = (error as Error).message;
    expect(message).toMatch(/lost the OpenCode server snodo started \(pid \d+\) mid-run/);
    expect((error as { stderrTail: string }).stderrTail).toContain('the server crashed (scripted)');
    expect(await waitUntilGone(record().pid)).toBe(true);
  });

  it('reports a server that exits before it listens, with its stderr', async () => {
    const { coder } = setUp({ prompt: writeHello, failStart: true });
    const error = await coder.doRun(makeRequest(repository)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CODER_FAILED', exitCode: 1 });
    expect((error as Error).message).toContain(
      'exited with code 1 before it printed the address it listens on',
    );
    expect((error as Error).message).toContain('Configuration is invalid');
  });

  it('kills the whole server process group when the session hangs past the limit', async () => {
    const { coder, record } = setUp({ prompt: { kind: 'hang' } });
    await expect(coder.doRun(makeRequest(repository, { timeoutMs: 4000 }))).rejects.toMatchObject({
      code: 'CODER_TIMEOUT',
    });
    expect(await waitUntilGone(record().pid)).toBe(true);
  });

  it('refuses an `opencode` that is 2.x before writing anything, and says so in checkAvailability', async () => {
    const { coder } = setUp({ prompt: writeHello, version: '2.3.0' });
    const request = makeRequest(repository);
    const error = await coder.doRun(request).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CODER_CLI_VERSION_UNSUPPORTED', foundVersion: '2.3.0' });
    expect((error as Error).message).toContain('V1 server API');
    expect(existsSync(request.transcriptPath)).toBe(false);
    const availability = await coder.checkAvailability({ env: request.env });
    expect(availability).toMatchObject({
      ready: false,
      installed: true,
      version: '2.3.0',
      versionSupported: false,
    });
  });

  it('reports a missing `opencode` as not installed, with the install hint, before writing anything', async () => {
    repository = createTestRepository();
    const coder = createOpencodeCoder({ config: { binary: path.join(repository.binDirectory, 'opencode') } });
    const request = makeRequest(repository);
    await expect(coder.doRun(request)).rejects.toMatchObject({
      code: 'CODER_NOT_INSTALLED',
      installHint: 'npm install -g opencode-ai@1',
    });
    expect(existsSync(request.transcriptPath)).toBe(false);
    await expect(coder.checkAvailability({ env: request.env })).resolves.toMatchObject({
      ready: false,
      installed: false,
      fix: 'npm install -g opencode-ai@1',
    });
  });

  it('is available with a 1.x `opencode` on PATH', async () => {
    const { coder } = setUp({ prompt: writeHello });
    await expect(coder.checkAvailability({ env: makeRequest(repository).env })).resolves.toMatchObject({
      ready: true,
      installed: true,
      version: '1.18.33',
      versionSupported: true,
      binaryPath: path.join(repository.binDirectory, 'opencode'),
    });
  });
});
