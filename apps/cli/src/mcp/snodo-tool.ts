import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { exitCodeForError } from '../exit-codes.js';
import { errorJson } from '../output/error-json.js';
import type { McpCallAuditor } from './mcp-call-auditor.js';
import type { McpClientIdentity, McpSession } from './mcp-session.js';
import type { SnodoMcpTool } from './mcp-tool-map.js';

/** How a tool's work ended: a result, or snodo saying no (with why) without trying. */
export type ToolOutcome =
  | { readonly kind: 'ok'; readonly data: Record<string, unknown>; readonly jobId?: string | undefined }
  | { readonly kind: 'refused'; readonly reason: string; readonly jobId?: string | undefined };

/** What every tool handler works with: the server, the client's session and the call auditor. */
export interface ToolHost {
  readonly server: McpServer;
  readonly session: McpSession;
  readonly auditor: McpCallAuditor;
}

/** The client's name and version from its `initialize`; `unknown` before one. */
export function clientIdentity(server: McpServer): McpClientIdentity {
  const client = server.server.getClientVersion();
  return { name: client?.name ?? 'unknown', version: client?.version ?? 'unknown' };
}

/** A refusal, in the one shape every tool uses. */
export function refuse(reason: string, jobId?: string): ToolOutcome {
  return { kind: 'refused', reason, jobId };
}

/** A result, in the one shape every tool uses. */
export function ok(data: Record<string, unknown>, jobId?: string): ToolOutcome {
  return { kind: 'ok', data, jobId };
}

/** A tool's definition: what a model reads (title, description, schema) and what the host may show. */
export interface SnodoToolDefinition<Schema extends z.ZodObject> {
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Schema;
  readonly readOnly: boolean;
  readonly destructive?: boolean;
}

/**
 * Registers one tool so that every call is audited (`mcp-tool-call`, with the client's name and version)
 * and ends in one of three shapes a model can read: the result as JSON (text and structured content), a
 * refusal naming why (`isError`, `refused: true`), or snodo's typed error with its code and fix.
 */
export function registerSnodoTool<Schema extends z.ZodObject>(
  host: ToolHost,
  name: SnodoMcpTool,
  definition: SnodoToolDefinition<Schema>,
  handler: (args: z.infer<Schema>, context: ServerContext) => Promise<ToolOutcome>,
): void {
  const register = host.server.registerTool.bind(host.server) as (
    name: string,
    config: Record<string, unknown>,
    callback: (args: z.infer<Schema>, context: ServerContext) => Promise<CallToolResultLike>,
  ) => unknown;
  register(
    name,
    {
      title: definition.title,
      description: definition.description,
      inputSchema: definition.inputSchema,
      annotations: {
        title: definition.title,
        readOnlyHint: definition.readOnly,
        destructiveHint: definition.destructive === true,
        openWorldHint: false,
      },
    },
    async (args, context) => {
      const client = clientIdentity(host.server);
      let outcome: ToolOutcome | undefined;
      let failure: unknown;
      try {
        outcome = await handler(args, context);
      } catch (error) {
        failure = error;
      }
      const document = failure === undefined ? undefined : errorJson(failure, exitCodeForError(failure));
      await host.auditor.record({
        tool: name,
        client_name: client.name,
        client_version: client.version,
        session: host.session.id,
        transport: host.session.transport,
        outcome: outcome?.kind ?? 'error',
        job_id: outcome?.jobId ?? jobIdArgument(args),
        error_code: document?.code,
        reason: outcome?.kind === 'refused' ? outcome.reason : document?.message,
      });
      if (outcome === undefined) {
        return {
          isError: true,
          content: [{ type: 'text', text: JSON.stringify(document, null, 2) }],
          structuredContent: { ...document },
        };
      }
      if (outcome.kind === 'refused') {
        return {
          isError: true,
          content: [{ type: 'text', text: `Refused: ${outcome.reason}` }],
          structuredContent: { refused: true, reason: outcome.reason },
        };
      }
      return {
        content: [{ type: 'text', text: JSON.stringify(outcome.data, null, 2) }],
        structuredContent: outcome.data,
      };
    },
  );
}

/** The result shape a tool callback returns (the SDK's `CallToolResult`, as far as these tools use it). */
interface CallToolResultLike {
  [key: string]: unknown;
  readonly isError?: boolean;
  readonly content: { type: 'text'; text: string }[];
  readonly structuredContent?: Record<string, unknown>;
}

function jobIdArgument(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const value = (args as { job_id?: unknown }).job_id;
  return typeof value === 'string' ? value : undefined;
}
