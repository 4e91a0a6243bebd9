import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { ProtocolMode } from '@snodo/core';
import { expect } from 'vitest';
import type { CliContext } from '../../cli-context.js';
import { createPalette } from '../../output/palette.js';
import type { CliFixture } from '../../testing/cli-fixture.js';
import { createSnodoMcpServer } from '../create-snodo-mcp-server.js';
import { McpSession } from '../mcp-session.js';
import type { JobStarter } from '../start-governed-job.js';

// Test support only: a snodo MCP server for one session, connected to a real v2 client through the SDK's
// in-memory transport, in a fixture repository.

/** A context for the fixture's repository whose output is kept in memory. */
export function fixtureContext(fixture: CliFixture): CliContext & { readonly output: string[] } {
  const output: string[] = [];
  const stream = { write: (text: string) => output.push(text) };
  return {
    cwd: fixture.root,
    env: fixture.env,
    homeDirectory: fixture.home,
    stdout: stream,
    stderr: stream,
    out: createPalette(stream, { NO_COLOR: '1' }),
    err: createPalette(stream, { NO_COLOR: '1' }),
    verbose: false,
    output,
  };
}

/** How the test client behaves: its name, and its answer to elicitation (none: it does not declare it). */
export interface TestClientOptions {
  readonly name?: string;
  readonly version?: string;
  readonly elicitation?: 'accept' | 'decline' | 'cancel';
}

/** Connects a v2 client to a new session's server; returns the client and the session. */
export async function connectTestClient(
  options: {
    context: CliContext;
    mode: ProtocolMode;
    jobs: JobStarter;
    approver?: string;
  } & TestClientOptions,
): Promise<{ client: Client; session: McpSession }> {
  const session = new McpSession('memory');
  const server = createSnodoMcpServer({
    context: options.context,
    mode: options.mode,
    approver: options.approver,
    session,
    jobs: options.jobs,
    track: () => {},
  });
  const client = new Client(
    { name: options.name ?? 'test-host', version: options.version ?? '1.2.3' },
    { capabilities: options.elicitation === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (options.elicitation !== undefined) {
    const action = options.elicitation;
    client.setRequestHandler('elicitation/create', async () =>
      action === 'accept' ? { action, content: { confirm: true, reason: 'looked at it' } } : { action },
    );
  }
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return { client, session };
}

/** The structured result of a tool call, failing the test when the call was an error. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  return result.structuredContent as Record<string, unknown>;
}

/** Polls `snodo_job_status` until the job is finished; returns the last status. */
export async function waitForJob(client: Client, jobId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await callOk(client, 'snodo_job_status', { job_id: jobId });
    if (status.finished === true) return status;
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
