import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoderProviderFailedError } from '@snodo/coder-sdk';
import { createTemporaryRun, isolateGitConfiguration, type TemporaryRun } from '@snodo/conformance/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeCodeCoder } from './claude-code-adapter.js';

// The real Claude Code from npm (the pinned devDependency, or SNODO_COMPAT_CLAUDE_CODE_BINARY) against a
// server on 127.0.0.1 that answers every call with one failing status, as a provider outage does.
const packageDirectory = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const binary =
  process.env.SNODO_COMPAT_CLAUDE_CODE_BINARY ??
  path.join(packageDirectory, 'node_modules', '.bin', 'claude');
const installed = existsSync(binary);

/** A provider that fails every call with `status` (an Anthropic error body), counting the calls. */
async function failingProvider(
  status: number,
): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls += 1;
      const type = status === 429 ? 'rate_limit_error' : 'api_error';
      response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end(JSON.stringify({ type: 'error', error: { type, message: 'scripted outage' } }));
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

/** A request for the real CLI pointed at `url`; `max_retries` becomes Claude Code's own `CLAUDE_CODE_MAX_RETRIES`. */
function request(url: string, maxRetries: number, timeoutMs: number) {
  const base = run.request({ credentials: { ANTHROPIC_API_KEY: 'sk-ant-outage-check-0123456789' } });
  return {
    ...base,
    model: 'claude-sonnet-4-5',
    timeoutMs,
    coderConfig: { binary, base_url: url, max_retries: maxRetries },
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

describe.skipIf(!installed)(`the real Claude Code against a failing provider (${binary})`, () => {
  it('retries of a 500 show as progress and the failure names the provider and its URL', {
    timeout: 90_000,
  }, async () => {
    provider = await failingProvider(500);
    const error = await failure(createClaudeCodeCoder().doRun(request(provider.url, 2, 60_000)));

    expect(CoderProviderFailedError.isInstance(error), String(error)).toBe(true);
    const named = error as CoderProviderFailedError;
    expect(named.message).toContain(
      'Claude Code failed: the provider kept failing: API error 500 (2 retries)',
    );
    expect(named.message).toContain('scripted outage');
    expect(named.fix).toContain(provider.url);
    expect(named.message).not.toContain('split the task');
    expect(progress(run.events)).toEqual(
      expect.arrayContaining([
        'Claude Code: API error 500, retry 1/2',
        'Claude Code: API error 500, retry 2/2',
      ]),
    );
    expect(provider.calls()).toBeGreaterThanOrEqual(3);
  });

  it('a run stopped at its limit while retrying a 429 blames the rate limit, not the task', {
    timeout: 90_000,
  }, async () => {
    provider = await failingProvider(429);
    const error = await failure(createClaudeCodeCoder().doRun(request(provider.url, 10, 15_000)));

    expect(CoderProviderFailedError.isInstance(error), String(error)).toBe(true);
    const named = error as CoderProviderFailedError;
    expect(named.message).toContain('the provider kept failing: rate limited (429)');
    expect(named.message).toContain('snodo stopped it after 15s while it was still retrying');
    expect(named.fix).toContain('quota');
    expect(named.fix).toContain(provider.url);
    expect(named.message).not.toContain('split the task');
    expect(progress(run.events)).toContain('Claude Code: rate limited (429), retry 1/10');
  });
});
