import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport as TransportV1 } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { callOk, waitForJob } from '../../mcp/testing/mcp-test-client.js';
import { type CliFixture, createCliFixture, SNODO_BIN } from '../../testing/cli-fixture.js';

// `snodo serve` as a host agent meets it: the BUILT binary spawned over stdio by the SDK's real client
// transports (v2, and the older v1 SDK speaking a 2025 protocol version), and over Streamable HTTP with its
// Host, Origin and bearer-token checks. Jobs run with the mock coder and are followed to the end.

/** Wraps a v1 transport so its `initialize` asks for an older protocol version, as a 2025-era client does. */
function speakingProtocol(transport: TransportV1, version: string): TransportV1 {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'initialize' && message.params !== undefined) {
      return send({ ...message, params: { ...message.params, protocolVersion: version } }, options);
    }
    return send(message, options);
  };
  return transport;
}

interface HttpServe {
  readonly child: ChildProcess;
  readonly url: string;
  readonly token: string;
  readonly port: number;
}

/** Starts `snodo serve --http 0` and reads the URL and token it prints. */
async function startHttpServe(fixture: CliFixture, extra: readonly string[] = []): Promise<HttpServe> {
  const child = spawn(process.execPath, [SNODO_BIN, 'serve', '--http', '0', ...extra], {
    cwd: fixture.root,
    env: fixture.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const url = /at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/.exec(printed);
    const token = /token: (\S+)/.exec(printed);
    if (url?.[1] !== undefined && url[2] !== undefined && token?.[1] !== undefined) {
      return { child, url: url[1], port: Number(url[2]), token: token[1] };
    }
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`snodo serve --http did not start:\n${printed}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A POST through node:http, which (unlike fetch) sends the Host header it is given: what a DNS-rebinding
 * page's request looks like to the server.
 */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        );
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

const INITIALIZE = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'curl-like', version: '0.1' } },
});

/**
 * A fresh repository for one test, removed when that test ends. The tests run at the same time, so the
 * hook comes from the test's own context (the imported `onTestFinished` would pick any running test).
 */
function useFixture(context: TestContext, options?: Parameters<typeof createCliFixture>[0]): CliFixture {
  const fixture = createCliFixture(options);
  context.onTestFinished(() => fixture.cleanup());
  return fixture;
}

// The tests run at the same time: each has its own repository (the HTTP ones share one server), and most
// of a test is waiting on snodo processes.
describe.concurrent('snodo serve over real transports', () => {
  it('over stdio: a v2 client starts a job, follows it to the end, reads its diff and verifies the audit log', async (context) => {
    const fixture = useFixture(context);
    const client = new Client({ name: 'stdio-host', version: '2.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SNODO_BIN, 'serve'],
        cwd: fixture.root,
        env: fixture.env,
        stderr: 'pipe',
      }),
    );
    context.onTestFinished(() => client.close().catch(() => {}));
    expect(client.getServerVersion()?.name).toBe('snodo');
    const started = await callOk(client, 'snodo_run_task', { task: 'Add a CONTRIBUTING.md', mock: true });
    const jobId = String(started.job_id);
    expect(await waitForJob(client, jobId)).toMatchObject({ status: 'done', outcome: 'merged' });
    const diff = await callOk(client, 'snodo_task_diff', { job_id: jobId });
    expect(diff.files).toEqual([expect.objectContaining({ path: `snodo-mock/${jobId}.md` })]);
    expect(await callOk(client, 'snodo_audit_verify')).toMatchObject({ ok: true });
    const events = await client.readResource({ uri: `snodo://jobs/${jobId}/events` });
    const types = (
      JSON.parse(String((events.contents[0] as { text: string }).text)) as { type: string }[]
    ).map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['job-start', 'mcp-tool-call', 'job-end']));
    const verify = await fixture.snodo(['audit', 'verify']);
    expect(verify.exitCode, verify.all).toBe(0);
  });

  it('over stdio: the older v1 SDK asking for 2025-06-18 connects, and its name is audited', async (context) => {
    const fixture = useFixture(context);
    const client = new ClientV1({ name: 'old-host', version: '1.32.2' });
    await client.connect(
      speakingProtocol(
        new StdioClientTransportV1({
          command: process.execPath,
          args: [SNODO_BIN, 'serve'],
          cwd: fixture.root,
          env: fixture.env,
          stderr: 'pipe',
        }),
        '2025-06-18',
      ),
    );
    context.onTestFinished(() => client.close().catch(() => {}));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('snodo_run_task');
    const listed = await client.callTool({ name: 'snodo_task_list', arguments: {} });
    expect(listed.isError).not.toBe(true);
    await client.close();
    const show = await fixture.snodo(['audit', 'show', '--json']);
    expect(show.stdout).toContain('"client_name": "old-host"');
  });

  // One `snodo serve --http` for both: its checks and a client's session are independent of each other.
  describe('over HTTP', () => {
    let fixture: CliFixture;
    let serve: HttpServe;
    beforeAll(async () => {
      fixture = createCliFixture();
      serve = await startHttpServe(fixture);
    });
    afterAll(async () => {
      serve?.child.kill('SIGTERM');
      if (serve !== undefined && serve.child.exitCode === null) await once(serve.child, 'exit');
      fixture?.cleanup();
    });

    it('requires the bearer token, refuses a foreign Host or Origin, and connects a 2025-03-26 client', async () => {
      const post = (headers: Record<string, string>, body: unknown = INITIALIZE('2025-03-26')) =>
        rawPost(serve.url, headers, body);
      const bearer = { authorization: `Bearer ${serve.token}` };
      const second = await fixture.snodo(['serve', '--http', String(serve.port)]);
      expect(second.exitCode).toBe(2);
      expect(second.stderr).toContain(`Cannot listen on 127.0.0.1:${serve.port}: the port is in use`);
      expect((await post({})).status).toBe(401);
      expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await post({ authorization: `Bearer ${serve.token}x` })).status).toBe(401);
      expect((await post({ ...bearer, host: `evil.example:${serve.port}` })).status).toBe(403);
      expect((await post({ ...bearer, origin: 'http://evil.example' })).status).toBe(403);

      const initialized = await post(bearer);
      expect(initialized.status).toBe(200);
      const session = initialized.headers['mcp-session-id'];
      expect(session).toBeTruthy();
      const text = initialized.text;
      expect(text).toContain('"protocolVersion":"2025-03-26"');
      const sessionHeaders = {
        ...bearer,
        'mcp-session-id': String(session),
        'mcp-protocol-version': '2025-03-26',
      };
      expect(
        (await post(sessionHeaders, { jsonrpc: '2.0', method: 'notifications/initialized' })).status,
      ).toBe(202);
      const list = await post(sessionHeaders, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(list.text).toContain('snodo_run_task');
      // The session is the token's too: without it, the same session id gets nothing.
      expect(
        (await post({ 'mcp-session-id': String(session) }, { jsonrpc: '2.0', id: 3, method: 'tools/list' }))
          .status,
      ).toBe(401);
    });

    it('lets a v2 client start a job, follow it and read its diff; approval exists only with --approver', async (context) => {
      const client = new Client({ name: 'http-host', version: '2.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serve.url), {
          requestInit: { headers: { authorization: `Bearer ${serve.token}` } },
        }),
      );
      context.onTestFinished(() => client.close().catch(() => {}));
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain('snodo_task_approve');
      const started = await callOk(client, 'snodo_run_task', { task: 'Add a CONTRIBUTING.md', mock: true });
      const jobId = String(started.job_id);
      expect(await waitForJob(client, jobId)).toMatchObject({ status: 'done', outcome: 'merged' });
      expect((await callOk(client, 'snodo_task_diff', { job_id: jobId })).files).toHaveLength(1);
      expect(await callOk(client, 'snodo_audit_verify')).toMatchObject({ ok: true });
      await expect(
        client.callTool({ name: 'snodo_task_approve', arguments: { job_id: jobId, reason: 'x' } }),
      ).rejects.toThrow('Tool snodo_task_approve not found');
    });
  });

  it('refuses to start outside a repository or with an invalid protocol, naming the fix (exit 2)', async (context) => {
    const outsideFixture = useFixture(context, { git: false });
    const outside = await outsideFixture.snodo(['serve'], { cwd: outsideFixture.home });
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain('is not inside a git working tree');
    const fixture = useFixture(context, { protocol: 'protocol_id: broken\nmodes: nope\n' });
    const invalid = await fixture.snodo(['serve']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/protocol\.yml:\d+:\d+/);
    const badPort = await fixture.snodo(['serve', '--http', 'eighty']);
    expect(badPort.exitCode).toBe(2);
    expect(badPort.stderr).toContain('expected a TCP port from 0 to 65535');
    const unknownMode = await useFixture(context).snodo(['serve', '--mode', 'nobody']);
    expect(unknownMode.exitCode).toBe(2);
    expect(unknownMode.stderr).toContain('has no mode "nobody"');
  });
});
