import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoderProviderFailedError } from '@snodo/coder-sdk';
import { createTemporaryRun, isolateGitConfiguration, type TemporaryRun } from '@snodo/conformance/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiCliCoder } from './gemini-cli-adapter.js';

// The real Gemini CLI from npm (the pinned devDependency, or SNODO_COMPAT_GEMINI_CLI_BINARY) against a
// server on 127.0.0.1 that answers every call with one failing status, as a provider outage does.
const packageDirectory = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const binary =
  process.env.SNODO_COMPAT_GEMINI_CLI_BINARY ?? path.join(packageDirectory, 'node_modules', '.bin', 'gemini');
const installed = existsSync(binary);

/** A provider that fails every call with `status` (a Gemini error body), counting the calls. */
async function failingProvider(
  status: number,
): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls += 1;
      const name = status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL';
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: status, message: 'scripted outage', status: name } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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

/** A request for the real CLI pointed at `url`; `max_retries` sets Gemini CLI's own `general.maxAttempts`. */
function request(url: string, coderConfig: Record<string, unknown>, timeoutMs: number) {
  return {
    ...run.request({ credentials: { GEMINI_API_KEY: 'gemini-outage-check-0123456789' } }),
    model: 'gemini-2.5-pro',
    timeoutMs,
    coderConfig: { binary, base_url: url, ...coderConfig },
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

describe.skipIf(!installed)(`the real Gemini CLI against a failing provider (${binary})`, () => {
  it('a 429 it gave up on shows as progress and fails naming the rate limit and the URL', {
    timeout: 120_000,
  }, async () => {
    provider = await failingProvider(429);
    const error = await failure(
      createGeminiCliCoder().doRun(request(provider.url, { max_retries: 1 }, 90_000)),
    );

    expect(CoderProviderFailedError.isInstance(error), String(error)).toBe(true);
    const named = error as CoderProviderFailedError;
    expect(named.message).toContain(
      'Gemini CLI failed: the provider kept failing: rate limited (429) (1 retry)',
    );
    expect(named.message).toContain('scripted outage');
    expect(named.fix).toContain(provider.url);
    expect(named.message).not.toContain('YOLO mode');
    expect(progress(run.events)).toContain('Gemini CLI: rate limited (429), retry 1/1');
    expect(provider.calls()).toBe(2);
  });

  it('a run stopped at its limit while retrying a 500 blames the provider, not the task', {
    timeout: 120_000,
  }, async () => {
    provider = await failingProvider(500);
    const error = await failure(createGeminiCliCoder().doRun(request(provider.url, {}, 25_000)));

    expect(CoderProviderFailedError.isInstance(error), String(error)).toBe(true);
    const named = error as CoderProviderFailedError;
    expect(named.message).toContain('the provider kept failing: API error 500');
    expect(named.message).toContain('snodo stopped it after 25s while it was still retrying');
    expect(named.message).not.toContain('split the task');
    expect(progress(run.events)).toContain('Gemini CLI: API error 500, retry 1');
  });
});
