import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoderFailedError } from '../errors/coder-failed-error.js';
import { CoderProviderFailedError } from '../errors/coder-provider-failed-error.js';
import { CoderTimeoutError } from '../errors/coder-timeout-error.js';
import { writeFakeCli } from '../testing/fake-cli.js';
import { makeRequest } from '../testing/fake-coder.js';
import {
  createTemporaryRepository,
  isolateGitConfiguration,
  type TemporaryRepository,
} from '../testing/temporary-repository.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import { SubprocessCoderAdapter } from './subprocess-coder-adapter.js';
import type { SubprocessRun } from './subprocess-run.js';

let repository: TemporaryRepository;
beforeAll(() => isolateGitConfiguration());
beforeEach(() => {
  repository = createTemporaryRepository();
});
afterEach(() => repository.cleanup());

/** An adapter whose CLI prints `retry <status>` lines on stderr while it waits for its provider. */
class RetryingCoder extends SubprocessCoderAdapter {
  readonly id = 'fake-coder';
  readonly displayName = 'Fake Coder';
  readonly binary = 'fake-coder';
  readonly modelPrefix = 'fake/';
  readonly installHint = 'npm install -g fake-coder';
  readonly credentials = { envVars: ['FAKE_API_KEY'], configKey: 'fake' };
  override readonly stderrNoise = [/^WARNING: unrelated start-up noise/];
  // Declared, not coded: the base reads the lines, reports progress and names the cause of a timeout.
  override readonly providerRetries = {
    stream: 'stderr' as const,
    parse: (line: string, run: SubprocessRun) => {
      const match = /^retry (\d+)$/.exec(line);
      return match === null ? undefined : { status: Number(match[1]), attempt: run.retries.count + 1 };
    },
    endpoint: () => ({ where: 'http://127.0.0.1:9' }),
  };

  buildArgv(prompt: string): string[] {
    return [this.binary, prompt];
  }
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

function run(coder: RetryingCoder, overrides: Partial<CoderV1Request>) {
  const request = makeRequest(repository, overrides);
  return { request, promise: coder.doRun(request) };
}

describe('SubprocessCoderAdapter names a provider that kept failing', () => {
  it('a CLI stopped while retrying fails with the provider as its cause, and each retry was progress', async () => {
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `process.stderr.write('WARNING: unrelated start-up noise\\n');
       let count = 0;
       setInterval(() => { count += 1; process.stderr.write('retry ' + (count % 2 ? 500 : 429) + '\\n'); }, 100);`,
    );
    const { request, promise } = run(new RetryingCoder({ killGraceMs: 300 }), { timeoutMs: 1500 });
    const error = await failure(promise);

    expect(CoderProviderFailedError.isInstance(error), String(error)).toBe(true);
    const provider = error as CoderProviderFailedError;
    expect(provider.message).toContain('the provider kept failing');
    expect(provider.message).toContain('after 2s while it was still retrying');
    expect(provider.stderrTail).toContain('retry 500');
    expect(provider.stderrTail).not.toContain('unrelated start-up noise');
    const progress = request.events.flatMap((event) =>
      event.type === 'coder-progress' ? [event.message] : [],
    );
    expect(progress).toContain('Fake Coder: API error 500, retry 1');
    expect(progress).toContain('Fake Coder: rate limited (429), retry 2');
  }, 15_000);

  it('a stopped CLI that never retried is still a timeout', async () => {
    writeFakeCli(repository.binDirectory, 'fake-coder', `setInterval(() => process.stdout.write('.'), 100);`);
    const { promise } = run(new RetryingCoder({ killGraceMs: 300 }), { timeoutMs: 1000 });
    expect(CoderTimeoutError.isInstance(await failure(promise))).toBe(true);
  }, 15_000);

  it('a failed exit keeps the failure’s own stderr lines and drops the declared noise', async () => {
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `process.stderr.write('WARNING: unrelated start-up noise\\nError: the disk is full\\n'); process.exit(4);`,
    );
    const error = await failure(run(new RetryingCoder(), {}).promise);
    expect(CoderFailedError.isInstance(error)).toBe(true);
    expect((error as CoderFailedError).stderrTail).toContain('Error: the disk is full');
    expect((error as Error).message).not.toContain('unrelated start-up noise');
  }, 15_000);
});
