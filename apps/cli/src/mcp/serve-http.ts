import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
} from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';
import { CliError } from '../errors/cli-error.js';
import { McpSession } from './mcp-session.js';

/** The path the MCP endpoint answers on. */
const MCP_HTTP_PATH = '/mcp';

/** A running Streamable HTTP endpoint. */
export interface HttpMcpEndpoint {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly port: number;
  /** The bearer token every request must carry (`Authorization: Bearer <token>`). */
  readonly token: string;
  /** Closes every session and the listening socket. */
  close(): Promise<void>;
}

/** What the endpoint needs: a port (0 picks one), and a server per new session. */
export interface HttpMcpOptions {
  readonly port: number;
  readonly createServer: (session: McpSession) => McpServer;
  /** A fixed token (tests); default 32 random bytes. */
  readonly token?: string | undefined;
}

/** A new bearer token: 32 random bytes, base64url. */
function createBearerToken(): string {
  return randomBytes(32).toString('base64url');
}

function answer(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

function bearerMatches(request: IncomingMessage, expected: Buffer): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer (\S+)$/.exec(header);
  if (match?.[1] === undefined) return false;
  const given = Buffer.from(match[1]);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `snodo serve --http <port>`: Streamable HTTP on 127.0.0.1 only. Before the MCP transport sees a request:
 * the Host header must name this machine (`localhost`, `127.0.0.1`, `[::1]`: a DNS-rebinding page cannot
 * reach the server under another name), a browser's Origin must be local too, and the bearer token must
 * match (401 otherwise; compared in constant time). Each `initialize` opens a session with its own server,
 * so each session remembers only the jobs it started.
 */
export async function serveHttp(options: HttpMcpOptions): Promise<HttpMcpEndpoint> {
  const token = options.token ?? createBearerToken();
  const expected = Buffer.from(token);
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();
  const sessions = new Map<string, { transport: NodeStreamableHTTPServerTransport; server: McpServer }>();

  const openSession = async (request: IncomingMessage, response: ServerResponse) => {
    const session = new McpSession('http');
    const server = options.createServer(session);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => session.id,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      sessions.delete(session.id);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };

  const http: Server = createServer((request, response) => {
    if (!validHost(request, response) || !validOrigin(request, response)) return;
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== MCP_HTTP_PATH)
      return answer(response, 404, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}.`);
    if (!bearerMatches(request, expected)) {
      return answer(
        response,
        401,
        'A bearer token is required: the one `snodo serve --http` printed at start.',
        {
          'www-authenticate': 'Bearer realm="snodo"',
        },
      );
    }
    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const handled =
      sessionId === undefined
        ? request.method === 'POST'
          ? openSession(request, response)
          : Promise.resolve(answer(response, 400, 'No session: start with a POST of initialize.'))
        : (sessions.get(sessionId)?.transport.handleRequest(request, response) ??
          Promise.resolve(
            answer(response, 404, `Session ${sessionId} is not known (closed or from an earlier start).`),
          ));
    handled.catch((error: unknown) => {
      if (!response.headersSent)
        answer(response, 500, error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new CliError('CLI_USAGE', {
              message: `Cannot listen on 127.0.0.1:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : 'permission denied'}.`,
              fix: 'snodo serve --http 0   (any free port; the URL is printed)',
              cause: error,
            })
          : error,
      );
    });
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${MCP_HTTP_PATH}`,
    port,
    token,
    async close() {
      await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
