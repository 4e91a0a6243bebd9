import { type Command, InvalidArgumentError } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';

/** Reads `--http 8765`: a TCP port, or 0 for any free one. */
function parsePort(value: string): number {
  const port = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || port > 65_535) {
    throw new InvalidArgumentError(
      `expected a TCP port from 0 to 65535 (0 picks a free one), like 8765; got "${value}".`,
    );
  }
  return port;
}

/** `snodo serve`: snodo as an MCP server, so host agents dispatch governed tasks (SPEC §14). */
export function registerServeCommand(program: Command, runtime: CommandRuntime): void {
  program
    .command('serve')
    .description(
      'serve snodo to host agents over MCP: run, follow and inspect governed tasks (stdio by default)',
    )
    .option(
      '--http <port>',
      'serve Streamable HTTP on 127.0.0.1:<port> with a bearer token (0: any free port)',
      parsePort,
    )
    .option(
      '--mode <id>',
      'the protocol mode served; its tools decide what clients see (default: initial_mode)',
    )
    .option(
      '--approver <name>',
      'offer approve/reject tools that decide as this human (confirmed where the client can)',
    )
    .addHelpText(
      'after',
      `
Over stdio, a host agent starts it, e.g. in an MCP config: {"command": "snodo", "args": ["serve"]}.
With --http it prints the URL and a bearer token; every request must send "Authorization: Bearer <token>".
There is no tool that edits files: changes come only from governed runs (snodo_run_task).`,
    )
    .action(async (options) => {
      const { serveAction } = await import('./serve-action.js');
      runtime.setExitCode(await serveAction(runtime.context, options));
    });
}
