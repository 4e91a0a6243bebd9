import type { AuditEventDataByType } from '@snodo/core';

type Fields = readonly (readonly [name: string, value: unknown])[];
type Summaries = {
  readonly [T in keyof AuditEventDataByType]: (data: AuditEventDataByType[T]) => Fields;
};

/** How long a free-text field (a justification, a task) may run on an event's line. */
const TEXT_LIMIT = 60;

function seconds(milliseconds: number | undefined): string | undefined {
  return milliseconds === undefined ? undefined : `${(milliseconds / 1000).toFixed(1)}s`;
}

function shortSha(sha: string | undefined | null): string | undefined {
  return sha ? sha.slice(0, 12) : undefined;
}

function list(values: readonly string[] | undefined, limit = 3): string | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const shown = values.slice(0, limit).join(',');
  return values.length > limit ? `${shown},…(+${values.length - limit})` : shown;
}

function tokens(usage: Readonly<Record<string, unknown>> | null): string | undefined {
  if (usage === null) return undefined;
  const input = usage.input_tokens ?? usage.inputTokens;
  const output = usage.output_tokens ?? usage.outputTokens;
  return typeof input === 'number' && typeof output === 'number' ? `${input}→${output}` : undefined;
}

/** Micro-dollars (the log's unit for money) as dollars. */
function dollars(microDollars: number | null): string | undefined {
  return microDollars === null ? undefined : `$${(microDollars / 1_000_000).toFixed(4)}`;
}

/**
 * The fields that matter on each event type's line, in reading order, from the audit vocabulary (a new
 * event type fails to compile here until it says what to show). A verdict shows its gate, severity and the
 * start of its justification; a job-end its status and outcome; a coder-end its exit, duration and files.
 */
const SUMMARIES: Summaries = {
  'job-start': (data) => [
    ['task', data.task],
    ['protocol', data.protocol_id],
  ],
  'task-classify': (data) => [
    ['mode', data.mode],
    ['flow', data.flow_type],
    ['source', data.mode_source],
  ],
  'coder-resolve': (data) => [
    ['coder', data.coder],
    ['source', data.source],
    ['version', data.version],
    ['credentials', data.credentials],
    ['judging', data.models.judging.model],
    ['coder_model', data.models.coder.model],
  ],
  'workspace-create': (data) => [
    ['branch', data.branch],
    ['base', data.base_ref],
    ['commit', shortSha(data.base_commit)],
    ['sandbox', data.sandbox],
  ],
  'workspace-setup': (data) => [
    ['outcome', data.outcome],
    ['command', data.command],
    ['source', data.source],
    ['exit', data.exit_code],
    ['duration', seconds(data.duration_ms)],
  ],
  'workspace-import': (data) => [
    ['branch', data.branch],
    ['commit', shortSha(data.commit)],
  ],
  'coder-start': (data) => [
    ['attempt', data.attempt],
    ['coder', data.coder],
    ['model', data.model],
    ['timeout', `${data.timeout_seconds}s`],
  ],
  'coder-end': (data) => [
    ['attempt', data.attempt],
    ['status', data.status],
    ['exit', data.exit_code],
    ['duration', seconds(data.duration_ms)],
    ['files', list(data.files)],
    ['tokens', tokens(data.usage)],
    ['commit', shortSha(data.commit)],
  ],
  'gate-verdict': (data) => [
    ['gate', data.gate_id],
    ['severity', data.severity],
    ['phase', data.phase],
    ['error', data.error ? 'yes' : undefined],
    ['justification', data.justification],
  ],
  'policy-decide': (data) => [
    ['phase', data.phase],
    ['action', data.action],
    ['policy', data.policy],
    ['halt', data.halt_reason],
  ],
  'fix-request': (data) => [
    ['attempt', data.attempt],
    ['findings', data.findings.length],
  ],
  'merge-start': (data) => [
    ['strategy', data.strategy],
    ['branch', data.branch],
    ['base', data.base_ref],
  ],
  'merge-end': (data) => [
    ['outcome', data.outcome],
    ['strategy', data.strategy],
    ['commit', 'merge_commit' in data ? shortSha(data.merge_commit) : undefined],
  ],
  'job-retain': (data) => [
    ['outcome', data.outcome],
    ['conflicts', list(data.conflicted_files)],
  ],
  'repository-tamper': (data) => [
    ['during', data.during],
    ['findings', data.findings.length],
  ],
  'job-end': (data) => [
    ['status', data.status],
    ['outcome', data.outcome],
    ['error', data.error_code],
    ['attempts', data.attempts],
    ['duration', seconds(data.duration_ms)],
    ['commit', shortSha(data.merge_commit)],
  ],
  'job-approve': (data) => [
    ['by', data.by],
    ['outcome', data.outcome],
    ['reason', data.reason],
  ],
  'budget-exceed': (data) => [
    ['cap', data.cap],
    ['limit', data.cap === 'cost' ? dollars(data.limit) : data.limit],
    ['phase', data.phase],
    ['spent', dollars(data.spent_cost_micro_usd)],
    ['tokens', data.spent_tokens],
  ],
  'budget-raise': (data) => [
    ['by', data.by],
    ['cap', data.cap],
    ['old', data.cap === 'cost' ? dollars(data.old) : data.old],
    ['new', data.cap === 'cost' ? dollars(data.new) : data.new],
  ],
  'job-merge': (data) => [['by', data.by]],
  'job-reject': (data) => [
    ['by', data.by],
    ['reason', data.reason],
  ],
  'queue-job-decide': (data) => [
    ['decision', data.decision],
    ['by', data.by],
    ['reason', data.reason],
    ['worker', data.worker],
  ],
  'job-cancel': (data) => [
    ['by', data.by],
    ['pid', data.pid],
    ['reason', data.reason],
  ],
  'job-abandon': (data) => [
    ['by', data.by],
    ['worktree_removed', data.worktree_removed],
    ['branch_deleted', data.branch_deleted],
  ],
  'landing-recover': (data) => [
    ['action', data.action],
    ['base', data.base_ref],
    ['commit', shortSha(data.merge_commit)],
  ],
  'job-interrupt': (data) => [
    ['pid', data.pid],
    ['was', data.previous_status],
  ],
  'mcp-tool-call': (data) => [
    ['tool', data.tool],
    ['client', `${data.client_name}@${data.client_version}`],
    ['outcome', data.outcome],
    ['code', data.error_code],
    ['reason', data.reason],
  ],
  'remote-landing-start': (data) => [
    ['worker', data.worker],
    ['base', data.base_ref],
    ['on', shortSha(data.base_commit)],
    ['task', shortSha(data.task_commit)],
    ['attempt', data.attempt],
    ['recheck', data.recheck],
  ],
  'remote-landing-end': (data) => [
    ['outcome', data.outcome],
    ['attempt', data.attempt],
    ['commit', shortSha(data.commit)],
    ['files', list(data.conflicted_files)],
    ['reason', data.reason],
  ],
};

function render(fields: Fields): string {
  const parts: string[] = [];
  for (const [name, value] of fields) {
    if (value === undefined || value === null || value === '') continue;
    const text = String(value).replaceAll(/\s+/g, ' ').trim();
    const shown = text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 1)}…` : text;
    parts.push(`${name}=${/\s/.test(shown) ? JSON.stringify(shown) : shown}`);
  }
  return parts.join(' ');
}

/** Events outside core's vocabulary (an `audit-reset`, a newer snodo's): their plain fields, in order. */
function fallback(data: Readonly<Record<string, unknown>>): Fields {
  return Object.entries(data)
    .filter(([, value]) => value !== null && typeof value !== 'object')
    .slice(0, 6);
}

/**
 * One event's key facts on one line, `gate=security severity=blocker justification="Adds a key…"`, chosen by
 * its type; text with spaces is quoted so the line stays readable by `grep` and the eye.
 */
export function summariseAuditEvent(type: string, data: Readonly<Record<string, unknown>>): string {
  const summary = Object.hasOwn(SUMMARIES, type)
    ? (SUMMARIES[type as keyof Summaries] as (data: unknown) => Fields)
    : undefined;
  if (summary === undefined) return render(fallback(data));
  try {
    return render(summary(data));
  } catch {
    // An event written by an older snodo may lack a field this one reads: show what it has.
    return render(fallback(data));
  }
}
