import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runResultJsonSchema } from '../../json/run-result-json-schema.js';
import { type CliFixture, createCliFixture, TEST_PROTOCOL } from '../../testing/cli-fixture.js';

// Issue 13, "outage vs verdict": a gate that could not decide because of the environment (the provider
// unreachable, failing or rate limiting; the gate's tool missing) ends the run with exit 3 and the cause's
// own words; a gate that decided against the change ends it with exit 1. CI can tell them apart.

/** An OpenAI-compatible endpoint on 127.0.0.1 that answers every request with `status` and `message`. */
async function failingProvider(status: number, message: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end(JSON.stringify({ error: { message, type: 'server_error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A port nobody listens on: bound, then closed. */
async function closedPort(): Promise<string> {
  const { origin, server } = await failingProvider(500, 'unused');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return origin;
}

describe('snodo run: an outage is not a verdict', () => {
  let fixture: CliFixture | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    fixture?.cleanup();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function runAgainst(origin: string) {
    fixture = createCliFixture();
    fixture.writeConfig(`providers:\n  local:\n    base_url: ${origin}/v1\n    api_key: sk-local-test-key\n`);
    const run = await fixture.snodo(['run', 'Add a file', '--mock', '-m', 'local/judge', '--json']);
    return { run, result: runResultJsonSchema.parse(JSON.parse(run.stdout)) };
  }

  it.each([
    [500, 'upstream exploded'],
    [429, 'slow down, you are rate limited'],
  ])('a judge whose provider answers %i exits 3 with the provider message', async (status, message) => {
    const provider = await failingProvider(status, message);
    server = provider.server;
    const { run, result } = await runAgainst(provider.origin);
    expect(run.exitCode, run.all).toBe(3);
    expect(result).toMatchObject({ status: 'failed', outcome: 'gate_unavailable' });
    expect(result.error?.code).toBe('LLM_CALL_FAILED');
    expect(result.summary).toContain('because of the environment');
    expect(result.summary).toContain(message);
    expect(run.stderr).toContain(message);
    // Nothing ran: the pre-execute judge could not decide, so the coder never started.
    expect(result.attempts).toBe(0);
  });

  it('a judge whose provider is unreachable exits 3 naming where it tried', async () => {
    const origin = await closedPort();
    const { run, result } = await runAgainst(origin);
    expect(run.exitCode, run.all).toBe(3);
    expect(result.error?.code).toBe('LLM_CALL_FAILED');
    expect(result.summary).toContain('because of the environment');
    expect(result.error?.message).toContain(origin);
  });

  it('a judge that decides against the change still exits 1', async () => {
    fixture = createCliFixture();
    const run = await fixture.snodo(['run', 'Add a file', '--mock', '-m', 'mock/blocker', '--json']);
    expect(run.exitCode, run.all).toBe(1);
    expect(runResultJsonSchema.parse(JSON.parse(run.stdout)).outcome).toBe('blocker');
  });

  it('a command gate whose tool is missing (exit 127) exits 3 with the shell words, after one attempt', async () => {
    fixture = createCliFixture({
      protocol: TEST_PROTOCOL.replace(
        'test_command: [node, -e, "process.exit(0)"]',
        'test_command: "snodo-no-such-test-runner --run"',
      ).replace('max_fix_attempts: 0', 'max_fix_attempts: 2'),
    });
    const run = await fixture.snodo(['run', 'Add a file', '--mock', '-m', 'mock/pass', '--json']);
    expect(run.exitCode, run.all).toBe(3);
    const result = runResultJsonSchema.parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({ status: 'failed', outcome: 'gate_unavailable' });
    expect(result.error?.code).toBe('GATE_COMMAND_UNAVAILABLE');
    expect(result.summary).toContain('snodo-no-such-test-runner');
    // The coder cannot install a tool: no fix attempt was asked for.
    expect(result.attempts).toBe(1);
  });
});
