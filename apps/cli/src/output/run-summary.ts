import type { RunTaskResult } from '@snodo/core';
import {
  branchName,
  firstLine,
  formatCost,
  formatCount,
  formatDuration,
  outcomeWords,
  shortSha,
} from './format.js';
import type { Palette } from './palette.js';
import { formatTable } from './table.js';

/** Colours a severity the way every snodo table does. */
export function severityText(severity: string, error: boolean, palette: Palette): string {
  if (error) return palette.red('error');
  if (severity === 'pass') return palette.green('pass');
  if (severity === 'warn') return palette.yellow('warn');
  return palette.red(severity);
}

/** The headline colour of a status: green done, yellow halted, red failed. */
export function statusColor(status: string, palette: Palette): (text: string) => string {
  if (status === 'done') return palette.green;
  if (status === 'halted' || status === 'cancelled' || status === 'interrupted') return palette.yellow;
  if (status === 'failed') return palette.red;
  return (text: string) => text;
}

/** `mock/pass` or `(coder's default)` for a role without a model. */
function modelText(model: string | undefined): string {
  return model ?? "(coder's default)";
}

/** Verdicts as `gate  phase  severity` rows, in the order the gates ran. */
export function verdictTable(
  verdicts: RunTaskResult['verdicts'],
  palette: Palette,
  indent = '  ',
): string | undefined {
  if (verdicts.length === 0) return undefined;
  const rows = [
    ['gate', 'phase', 'attempt', 'severity'],
    ...verdicts.map((verdict) => [
      verdict.gateId,
      verdict.phase.replace('_', '-'),
      String(verdict.attempt),
      severityText(verdict.severity, verdict.error, palette),
    ]),
  ];
  return formatTable(rows, { indent, header: palette.dim });
}

/**
 * Usage as `role  input  output  cost` rows; with a `cache read / written` column when any role read from
 * or wrote to a provider's prompt cache (input counts cache writes, not reads).
 */
export function usageTable(
  usage: RunTaskResult['usage'],
  palette: Palette,
  indent = '  ',
): string | undefined {
  const roles = Object.entries(usage);
  if (roles.length === 0) return undefined;
  const cached = roles.some(([, entry]) => entry.cachedInputTokens > 0 || (entry.cacheWriteTokens ?? 0) > 0);
  const cacheCell = (read: number, written: number) =>
    cached ? [`${formatCount(read)} / ${formatCount(written)}`] : [];
  let input = 0;
  let output = 0;
  let read = 0;
  let written = 0;
  let cost: number | null = 0;
  const rows = [
    ['role', 'input tokens', ...(cached ? ['cache read / written'] : []), 'output tokens', 'cost', 'source'],
  ];
  for (const [role, entry] of roles) {
    input += entry.inputTokens;
    output += entry.outputTokens;
    read += entry.cachedInputTokens;
    written += entry.cacheWriteTokens ?? 0;
    cost = cost === null || entry.costUsd === null ? null : cost + entry.costUsd;
    rows.push([
      role,
      formatCount(entry.inputTokens),
      ...cacheCell(entry.cachedInputTokens, entry.cacheWriteTokens ?? 0),
      formatCount(entry.outputTokens),
      formatCost(entry.costUsd),
      entry.source,
    ]);
  }
  if (roles.length > 1) {
    rows.push([
      'total',
      formatCount(input),
      ...cacheCell(read, written),
      formatCount(output),
      formatCost(cost),
      '',
    ]);
  }
  return formatTable(rows, { indent, header: palette.dim });
}

/**
 * The human summary of a run, printed on stdout when it ends: the job id and the outcome in words, the
 * coder and models, the changed files, every gate's verdict, tokens and cost per role, and either the merge
 * commit or the kept branch with the commands that inspect, finish or discard it.
 */
export function formatRunSummary(result: RunTaskResult, palette: Palette): string {
  const color = statusColor(result.status, palette);
  const words = outcomeWords(result.status, result.outcome, {
    baseRef: result.baseRef,
    branch: result.branch,
  });
  const lines: string[] = [];
  lines.push(`${palette.bold(`snodo ${result.jobId}`)}: ${color(palette.bold(words))}`);
  lines.push(`  task     ${firstLine(result.task)}`);
  if (result.summary !== '') lines.push(`  ${palette.dim(result.summary.split('\n').join('\n  '))}`);
  lines.push('');
  if (result.mode !== undefined) lines.push(`  mode     ${result.mode}`);
  if (result.coder !== undefined) {
    const version = result.coder.version === undefined ? '' : ` ${result.coder.version}`;
    lines.push(`  coder    ${result.coder.displayName} (${result.coder.id}${version})`);
  }
  if (result.models !== undefined) {
    lines.push(
      `  models   judging ${modelText(result.models.judging)}, classifier ${modelText(
        result.models.classifier,
      )}, coder ${modelText(result.models.coder)}`,
    );
  }
  const changed = result.changedFiles;
  if (changed.length > 0) {
    const shown = changed.slice(0, 8).join(', ');
    const more = changed.length > 8 ? ` and ${changed.length - 8} more` : '';
    lines.push(`  changed  ${changed.length} file${changed.length === 1 ? '' : 's'}: ${shown}${more}`);
  }
  lines.push(`  time     ${formatDuration(result.durationMs)}, ${result.attempts} attempt(s)`);
  // A protocol without a tests gate (what `snodo init` writes where it found no test command) lands
  // changes nothing ran: say so, where a reader would otherwise assume the tests passed.
  const landedChange = result.outcome === 'merged' || result.outcome === 'branch_kept';
  if (landedChange && !result.verdicts.some((verdict) => verdict.gateType === 'quality')) {
    lines.push('  tests    no tests ran (the protocol has no tests gate)');
  }
  const verdicts = verdictTable(result.verdicts, palette);
  if (verdicts !== undefined) lines.push('', verdicts);
  const usage = usageTable(result.usage, palette);
  if (usage !== undefined) lines.push('', usage);
  lines.push('');
  if (result.mergeCommit !== undefined) {
    lines.push(
      `  merge commit ${shortSha(result.mergeCommit)} on ${branchName(result.baseRef) ?? 'the base'}`,
    );
  } else if (result.branch !== undefined && result.nextSteps.length > 0) {
    lines.push(`  kept     branch ${result.branch}`);
    if (result.worktreePath !== undefined) lines.push(`           worktree ${result.worktreePath}`);
  }
  if (result.conflictedFiles !== undefined && result.conflictedFiles.length > 0) {
    lines.push(`  conflicts ${result.conflictedFiles.join(', ')}`);
  }
  if (result.nextSteps.length > 0) {
    lines.push('  next:');
    for (const step of result.nextSteps) lines.push(`    ${step}`);
  }
  lines.push(`  details: snodo meta ${result.jobId}`);
  return `${lines.join('\n')}\n`;
}
