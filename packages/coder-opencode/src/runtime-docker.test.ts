import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpencodeCoder } from './opencode-adapter.js';
import { type FakeDockerOptions, writeFakeDocker } from './testing/fake-executables.js';
import type { FakeOpencodeScenario } from './testing/fake-opencode-scenario.js';
import {
  createTestRepository,
  isolateGitConfiguration,
  makeRequest,
  type TestRepository,
} from './testing/test-repository.js';

/**
 * The docker runtime against a fake `docker` executable (no Docker engine runs on these machines): it
 * records every call and runs the fake OpenCode server as the "container". What is verified is the argv
 * and the lifecycle snodo drives; COMPAT.md marks this part as fixture-verified.
 */
let restoreGit: () => void;
beforeAll(() => {
  restoreGit = isolateGitConfiguration();
});
afterAll(() => restoreGit());

let repository: TestRepository;
afterEach(() => repository?.cleanup());

const image = 'ghcr.io/example/opencode:1.18.33';
const providerKey = 'sk-provider-key-for-the-container-0123';

function setUp(scenario: FakeOpencodeScenario, options: FakeDockerOptions = {}) {
  repository = createTestRepository();
  const docker = writeFakeDocker(repository.binDirectory, scenario, options);
  const coder = createOpencodeCoder({
    config: { runtime: 'docker', image, env: { ANTHROPIC_API_KEY: providerKey } },
    pollIntervalMs: 100,
    startupTimeoutMs: 20_000,
  });
  // Core adds `coders.opencode.env` to the coder's environment; the helper's allow-list would drop it.
  const request = (overrides: Parameters<typeof makeRequest>[1] = {}) => {
    const built = makeRequest(repository, {
      coderConfig: { env: { ANTHROPIC_API_KEY: providerKey } },
      ...overrides,
    });
    return { ...built, env: { ...built.env, ANTHROPIC_API_KEY: providerKey } };
  };
  return { docker, coder, request };
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 5000; waited += 50) {
    try {
      process.kill(pid, 0);
      if (/^\S+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return true;
    } catch {
      return true;
    }
    await delay(50);
  }
  return false;
}

const writeHello: FakeOpencodeScenario = {
  prompt: { kind: 'write-files', files: [{ path: 'hello.txt', content: 'hello from a container\n' }] },
};

describe('the docker runtime (fixture-verified: fake docker executable)', { timeout: 30_000 }, () => {
  it('runs one labelled container per attempt with the worktree mounted at its own path, then removes it', async () => {
    const { docker, coder, request } = setUp(writeHello);
    const result = await coder.doRun(request());
    expect(result.status).toBe('changed');
    expect(repository.git(['show', 'HEAD:hello.txt'])).toBe('hello from a container\n');

    const calls = docker.calls();
    expect(calls.map((call) => call.argv[0])).toEqual(['run', 'port', 'logs', 'rm']);
    const run = calls[0]?.argv ?? [];
    const name = run[run.indexOf('--name') + 1] ?? '';
    expect(name).toMatch(/^snodo-opencode-j_test1-[0-9a-f]{8}$/);
    const commonDirectory = path.join(repository.main, '.git');
    expect(run.slice(0, 3)).toEqual(['run', '--detach', '--rm']);
    expect(run).toEqual(
      expect.arrayContaining([
        '--label',
        'snodo.coder=opencode',
        'snodo.job=j_test1',
        '--publish',
        '127.0.0.1::4096',
        `${repository.workspace}:${repository.workspace}`,
        `${commonDirectory}:${commonDirectory}`,
        '--workdir',
        '--env',
        'OPENCODE_SERVER_PASSWORD',
        'OPENCODE_CONFIG_CONTENT',
        'ANTHROPIC_API_KEY',
        'HOME=/tmp/snodo-opencode/home',
        'XDG_DATA_HOME=/tmp/snodo-opencode/data',
      ]),
    );
    expect(run.slice(-8)).toEqual([
      '--entrypoint',
      'opencode',
      image,
      'serve',
      '--hostname',
      '0.0.0.0',
      '--port',
      '4096',
    ]);
    expect(result.argv).toEqual([docker.path, ...run]);
    expect(calls[1]?.argv).toEqual(['port', expect.any(String), '4096/tcp']);
    expect(calls[3]?.argv).toEqual(['rm', '--force', expect.any(String)]);

    const container = docker.containers()[name];
    expect(container?.removed).toBe(true);
    const password = container?.env.OPENCODE_SERVER_PASSWORD ?? '';
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect(container?.env.ANTHROPIC_API_KEY).toBe(providerKey);
    for (const call of calls) {
      expect(call.argv.join(' ')).not.toContain(password);
      expect(call.argv.join(' ')).not.toContain(providerKey);
    }
    expect(await waitUntilGone(container?.pid ?? 0)).toBe(true);
    const transcript = readFileSync(path.join(repository.jobDirectory, 'transcript.log'), 'utf8');
    expect(transcript).toContain('opencode server listening on');
    expect(transcript).not.toContain(password);
    expect(transcript).not.toContain(providerKey);
  });

  it("reports a container that cannot start with docker's own words, and removes it by name", async () => {
    const { docker, coder, request } = setUp(writeHello, { runFails: true });
    const error = await coder.doRun(request()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CODER_FAILED' });
    expect((error as Error).message).toContain('could not start its container');
    expect((error as Error).message).toContain('pull access denied');
    expect(docker.calls().at(-1)?.argv[0]).toBe('rm');
  });

  it('removes the container when the run is cancelled mid-session', async () => {
    const { docker, coder, request } = setUp({ prompt: { kind: 'hang' } });
    const controller = new AbortController();
    const running = coder.doRun(request({ abortSignal: controller.signal }));
    for (
      let waited = 0;
      waited < 20_000 && !docker.calls().some((call) => call.argv[0] === 'port');
      waited += 50
    ) {
      await delay(50);
    }
    await delay(500);
    controller.abort(new Error('cancelled by the test'));
    await expect(running).rejects.toMatchObject({ code: 'CODER_ABORTED' });
    const containers = Object.values(docker.containers());
    expect(containers).toHaveLength(1);
    expect(containers[0]?.removed).toBe(true);
  });

  it('refuses an image whose OpenCode is 2.x and removes the container', async () => {
    const { docker, coder, request } = setUp({ api: 'v2', prompt: { kind: 'hang' } });
    await expect(coder.doRun(request())).rejects.toMatchObject({ code: 'CODER_CLI_VERSION_UNSUPPORTED' });
    expect(Object.values(docker.containers())[0]?.removed).toBe(true);
  });

  it('is not available when the engine does not answer, or when there is no docker CLI', async () => {
    const { coder, request } = setUp(writeHello, { engineDown: true });
    const down = await coder.checkAvailability({ env: request().env });
    expect(down).toMatchObject({ ready: false, installed: true });
    expect(down.reason).toContain('Cannot connect to the Docker daemon');
    const none = await createOpencodeCoder({
      config: { runtime: 'docker', image, docker_binary: 'no-such-docker' },
    }).checkAvailability({
      env: request().env,
    });
    expect(none).toMatchObject({ ready: false, installed: false });
    expect(none.fix).toContain('Install Docker');
    await expect(
      createOpencodeCoder({ config: { runtime: 'docker', image, docker_binary: 'no-such-docker' } }).doRun(
        request(),
      ),
    ).rejects.toMatchObject({ code: 'CODER_NOT_INSTALLED', binary: 'no-such-docker' });
  });

  it('asks for an image when none is configured', async () => {
    repository = createTestRepository();
    await expect(
      createOpencodeCoder({ config: { runtime: 'docker' } }).doRun(makeRequest(repository)),
    ).rejects.toMatchObject({
      code: 'CODER_CONFIG_INVALID',
      setting: 'image',
    });
  });
});
