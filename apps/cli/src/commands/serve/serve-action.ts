import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { openProject, type ProtocolMode } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { builtInCoders } from '../../coders/built-in-coders.js';
import { CliError } from '../../errors/cli-error.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { createSnodoMcpServer } from '../../mcp/create-snodo-mcp-server.js';
import { McpSession } from '../../mcp/mcp-session.js';
import { toolsForMode } from '../../mcp/mcp-tool-map.js';
import { serveHttp } from '../../mcp/serve-http.js';
import { createJobStarter } from '../../mcp/start-governed-job.js';

/** The flags of `snodo serve`. */
export interface ServeFlags {
  readonly http?: number | undefined;
  readonly mode?: string | undefined;
  readonly approver?: string | undefined;
}

/** Where stdio serving reads and writes (the process's own streams; a test may pass others). */
export interface ServeStreams {
  readonly input: Readable;
  readonly output: Writable;
  /** Resolves when the server should stop (SIGINT/SIGTERM); default: those signals. */
  readonly stopped?: Promise<void>;
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * Refuses to serve what no run could use: outside a repository, without a protocol or with an invalid one
 * (core's typed error, naming the fix), or a mode the protocol does not have. Returns the mode served.
 */
export async function servedMode(context: CliContext, requested: string | undefined): Promise<ProtocolMode> {
  const project = await openProject({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    coders: builtInCoders,
  });
  if (project.protocol.state !== 'loaded') throw project.protocol.error;
  const { protocol } = project.protocol;
  const modeId = requested ?? protocol.initial_mode;
  const mode = protocol.modes.find((candidate) => candidate.mode_id === modeId);
  if (mode === undefined) {
    const known = protocol.modes.map((candidate) => candidate.mode_id);
    throw new CliError('CLI_USAGE', {
      message: `The protocol has no mode "${modeId}"; its modes are ${known.join(', ')}.`,
      fix: `snodo serve --mode ${known[0] ?? '<mode>'}`,
    });
  }
  return mode;
}

/**
 * `snodo serve`: the MCP server. Over stdio (the default) one client speaks on stdin/stdout and the server
 * ends when stdin closes; with `--http <port>` it serves Streamable HTTP on 127.0.0.1 until SIGINT/SIGTERM,
 * printing the URL and the bearer token first. Jobs run in processes of their own and outlive it.
 */
export async function serveAction(
  context: CliContext,
  flags: ServeFlags,
  streams: ServeStreams = { input: process.stdin, output: process.stdout },
): Promise<number> {
  if (flags.approver !== undefined && flags.approver.trim() === '') {
    throw new CliError('CLI_USAGE', {
      message: '--approver needs the name of the human who decides (it is recorded with every decision).',
      fix: 'snodo serve --approver "Ada Lovelace"',
    });
  }
  const mode = await servedMode(context, flags.mode);
  // Tools never print on stdout: under stdio it carries the protocol, so anything else would corrupt it.
  const toolContext: CliContext = { ...context, stdout: context.stderr, out: context.err };
  const jobs = createJobStarter(toolContext);
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const settled = work.catch(() => {}).finally(() => pending.delete(settled));
    pending.add(settled);
  };
  const build = (session: McpSession) =>
    createSnodoMcpServer({ context: toolContext, mode, approver: flags.approver, session, jobs, track });
  const tools = toolsForMode(mode, { approver: flags.approver }).join(', ');
  try {
    if (flags.http !== undefined) {
      const endpoint = await serveHttp({ port: flags.http, createServer: build });
      context.stdout.write(
        `snodo serve: MCP (Streamable HTTP) at ${endpoint.url}, mode ${mode.mode_id}\n` +
          `token: ${endpoint.token}\n` +
          `tools: ${tools}\n`,
      );
      await (streams.stopped ?? signalled());
      await endpoint.close();
      return EXIT_CODES.done;
    }
    const server = build(new McpSession('stdio'));
    const transport = new StdioServerTransport(streams.input, streams.output);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      streams.input.once('end', () => resolve());
    });
    await server.connect(transport);
    context.stderr.write(`snodo serve: MCP on stdio, mode ${mode.mode_id}; tools: ${tools}\n`);
    await Promise.race([closed, streams.stopped ?? signalled()]);
    await server.close().catch(() => {});
    return EXIT_CODES.done;
  } finally {
    // A decision's continued job (an approval) runs in this process: let it end before the server does.
    await Promise.all(pending);
  }
}
