import { McpServer } from '@modelcontextprotocol/server';
import type { ProtocolMode } from '@snodo/core';
import type { CliContext } from '../cli-context.js';
import { taskOptions } from '../commands/task/task-options.js';
import { VERSION } from '../version.js';
import { McpCallAuditor } from './mcp-call-auditor.js';
import type { McpSession } from './mcp-session.js';
import { toolsForMode } from './mcp-tool-map.js';
import { registerApprovalTools } from './register-approval-tools.js';
import { registerJobTools } from './register-job-tools.js';
import { registerProjectTools } from './register-project-tools.js';
import { registerResources } from './register-resources.js';
import { registerRunTools } from './register-run-tools.js';
import type { ToolHost } from './snodo-tool.js';
import type { JobStarter } from './start-governed-job.js';

/** What one session's server is built from. */
export interface SnodoMcpServerOptions {
  /** Where snodo runs. Tools never write to its stdout (on stdio that is the protocol's channel). */
  readonly context: CliContext;
  /** The protocol mode served: it decides which tools exist (`toolsForMode`). */
  readonly mode: ProtocolMode;
  /** The human approval tools act for; without one they do not exist. */
  readonly approver?: string | undefined;
  readonly session: McpSession;
  readonly jobs: JobStarter;
  /** Keeps work that outlives a call (a continued job) until the server stops. */
  readonly track: (work: Promise<unknown>) => void;
}

/**
 * The MCP server of one client session: the mode's tools (none of which edits a file), the resources, and
 * an audit record of every call. Built per session, so each has its own memory of the jobs it started.
 */
export function createSnodoMcpServer(options: SnodoMcpServerOptions): McpServer {
  const { context, mode, session } = options;
  const server = new McpServer(
    { name: 'snodo', version: VERSION },
    {
      instructions:
        'snodo runs coding tasks under governance: snodo_run_task starts a job (gates, an isolated coder, ' +
        'audit) and returns its id; follow it with snodo_job_status and read the change with snodo_task_diff. ' +
        `This server serves protocol mode "${mode.mode_id}". There is no tool to edit files directly.`,
    },
  );
  const host: ToolHost = { server, session, auditor: new McpCallAuditor(taskOptions(context)) };
  const tools = new Set<string>(toolsForMode(mode, { approver: options.approver }));
  registerRunTools(host, context, tools, { mode: mode.mode_id, jobs: options.jobs });
  registerJobTools(host, context, tools);
  registerProjectTools(host, context, tools);
  if (options.approver !== undefined) {
    registerApprovalTools(host, context, tools, { approver: options.approver, track: options.track });
  }
  registerResources(server, context);
  return server;
}
