import type { ProtocolMode } from '@snodo/core';

/** Every tool `snodo serve` can offer. None of them edits a file: changes come only from governed runs. */
export const SNODO_MCP_TOOLS = [
  'snodo_run_task',
  'snodo_dry_run',
  'snodo_job_status',
  'snodo_task_list',
  'snodo_task_show',
  'snodo_task_diff',
  'snodo_audit_verify',
  'snodo_protocol_validate',
  'snodo_coders',
  'snodo_task_approve',
  'snodo_task_reject',
] as const;

/** The name of one tool `snodo serve` can offer. */
export type SnodoMcpTool = (typeof SNODO_MCP_TOOLS)[number];

// Tools that only read: every mode may look at jobs, the audit log, the protocol and the coders.
const READING_TOOLS: readonly SnodoMcpTool[] = [
  'snodo_job_status',
  'snodo_task_list',
  'snodo_task_show',
  'snodo_audit_verify',
  'snodo_protocol_validate',
  'snodo_coders',
];

// The mode's logical tools (protocol `modes[].tools`) that grant MCP tools, after the Python original's
// MODE_TOOL_MAP: `edit`/`dispatch` (the modes that can change code, as core's mode choice counts them) may
// start runs; `review` may read diffs; `approve`/`merge`/`pr` may decide on jobs (and only with an approver).
const GRANTS: Readonly<Record<string, readonly SnodoMcpTool[]>> = {
  edit: ['snodo_run_task', 'snodo_dry_run', 'snodo_task_diff'],
  dispatch: ['snodo_run_task', 'snodo_dry_run', 'snodo_task_diff'],
  review: ['snodo_task_diff'],
  approve: ['snodo_task_diff', 'snodo_task_approve', 'snodo_task_reject'],
  merge: ['snodo_task_diff', 'snodo_task_approve', 'snodo_task_reject'],
  pr: ['snodo_task_diff', 'snodo_task_approve', 'snodo_task_reject'],
};

const APPROVAL_TOOLS: ReadonlySet<SnodoMcpTool> = new Set(['snodo_task_approve', 'snodo_task_reject']);

/**
 * The tools a client of `snodo serve` sees in `mode`: the reading tools always, the rest as the mode's
 * logical tools grant them. Approval tools appear only when the server was started with an approver (a
 * human's name), because a host agent must never decide on governed work by itself.
 */
export function toolsForMode(mode: Pick<ProtocolMode, 'tools'>, options: { approver?: string | undefined }) {
  const granted = new Set<SnodoMcpTool>(READING_TOOLS);
  for (const logical of mode.tools) for (const tool of GRANTS[logical] ?? []) granted.add(tool);
  if (options.approver === undefined) for (const tool of APPROVAL_TOOLS) granted.delete(tool);
  return SNODO_MCP_TOOLS.filter((tool) => granted.has(tool));
}
