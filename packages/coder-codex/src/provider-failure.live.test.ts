import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoderFailedError, CoderProviderFailedError } from '@snodo/coder-sdk';
import { createTemporaryRun, isolateGitConfiguration, type TemporaryRun } from '@snodo/conformance/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCodexCoder } from './codex-adapter.js';

// The real Codex from npm (the pinned devDependency, or SNODO_COMPAT_CODEX_BINARY) against a server on
// 127.0.0.1 that answers every call with one failing status. The run directory is under the system's
// temporary directory, so Codex prints its PATH-alias warning on stderr, as it does in CI.
const packageDirectory = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const binary =
  process.env.SNODO_COMPAT_CODEX_BINARY ?? path.join(packageDirectory, 'node_modules', '.bin', 'codex');
const installed = existsSync(binary);

/** A provider that fails every call with `status` (an OpenAI error body), counting the calls. */
async function failingProvider(
  status: number,
): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls += 1;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'scripted outage', type: 'server_error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let restoreGit: () => void;
let run: TemporaryRun;
let provider: Awaited<ReturnType<typeof failingProvider>> | undefined;
beforeAll(() => {
  restoreGit = isolateGitConfiguration();
});
afterAll(() => restoreGit());
beforeEach(() => {
  run = createTemporaryRun();
});
afterEach(async () => {
  await provider?.close();
  provider = undefined;
  run.cleanup();
});

/** A request for the real CLI pointed at `url`, retrying twice (`max_retries`). */
function request(url: string) {
  return {
    ...run.request({ credentials: { OPENAI_API_KEY: 'sk-outage-check-0123456789abcdef' } }),
    model: 'gpt-5',
    timeoutMs: 90_000,
    coderConfig: { binary, base_url: url, max_retries: 2 },
  };
}

function progress(events: TemporaryRun['events']): string[] {
  return events.flatMap((event) => (event.type === 'coder-progress' ? [event.message] : []));
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe.skipIf(!installed)(`the real Codex against a failing provider (${binary})`, () => {
  it('an outage it gave up on fails naming the provider, without the unrelated PATH-alias warning', {
    timeout: 120_000,
  }, async () => {
    provider = await failingProvider(500);
    const error = await failure(createCodexCoder().doRun(request(provider.url)));

    expect(CoderProviderFailedError.isInstance(error), String(error)).toBe(true);
    const named = error as CoderProviderFailedError;
    expect(named.message).toContain('Codex failed: the provider kept failing: API error (2 retries)');
    expect(named.fix).toContain(provider.url);
    expect(named.stderrTail).not.toContain('PATH aliases');
    expect(named.stderrTail).not.toContain('Reading additional input from stdin');
    expect(progress(run.events)).toEqual(
      expect.arrayContaining(['Codex: API error, retry 1/2', 'Codex: API error, retry 2/2']),
    );
  });

  it('a refused key keeps its own words and loses the noise', { timeout: 120_000 }, async () => {
    provider = await failingProvider(401);
    const error = await failure(createCodexCoder().doRun(request(provider.url)));

    expect(CoderFailedError.isInstance(error), String(error)).toBe(true);
    const failed = error as CoderFailedError;
    expect(failed.message).toContain('unexpected status 401 Unauthorized: scripted outage');
    expect(failed.message).not.toContain('PATH aliases');
    expect(failed.stderrTail).not.toContain('PATH aliases');
    expect(progress(run.events)).toContain('Codex: API error 401, retry 1/2');
  });
});
