import type { JobDetails, JobState } from '@snodo/core';
import { budgetLines } from './budget-lines.js';
import { describeCoderSource, describeModel, describeModelSource } from './describe-source.js';
import {
  branchName,
  compareCodePoints,
  firstLine,
  formatDuration,
  outcomeWords,
  shortSha,
} from './format.js';
import type { Palette } from './palette.js';
import { statusColor, usageTable, verdictTable } from './run-summary.js';
import { formatTable } from './table.js';

/** Stage timings in the order they started: `classify 2ms`, `execute#2 1.1s`… */
export function stageTimings(state: JobState): { stage: string; durationMs: number | undefined }[] {
  return Object.entries(state.stages)
    .sort(([, left], [, right]) => compareCodePoints(left.startedAt, right.startedAt))
    .map(([stage, timing]) => ({ stage, durationMs: timing.durationMs }));
}

/** The job's wall-clock time, from creation to end (or to now while it runs). */
export function jobDuration(state: JobState, now: number = Date.now()): number {
  const end = state.endedAt === undefined ? now : Date.parse(state.endedAt);
  return end - Date.parse(state.createdAt);
}

/**
 * `snodo meta <job>`: one screen about one job (SPEC §8) — the task, the outcome, the duration of each
 * stage, the coder, the models per role and why, tokens and cost per role, every verdict, and the commits
 * (base, one per attempt, merge).
 */
export function formatJobMeta(details: JobDetails, palette: Palette): string {
  const { state } = details;
  const words = outcomeWords(state.status, state.outcome, {
    baseRef: state.isolation?.baseRef,
    branch: state.isolation?.branch,
  });
  const lines: string[] = [
    `${palette.bold(`snodo ${state.jobId}`)}: ${statusColor(state.status, palette)(palette.bold(words))}`,
  ];
  const rows: string[][] = [
    ['task', firstLine(state.task, 100)],
    ['status', `${state.status}${state.outcome === undefined ? '' : ` (${state.outcome})`}`],
    ['started', `${state.createdAt}, took ${formatDuration(jobDuration(state))}`],
  ];
  if (state.summary !== undefined) rows.push(['summary', state.summary]);
  if (state.mode !== undefined) {
    rows.push(['mode', `${state.mode}${state.flowType === undefined ? '' : ` (${state.flowType})`}`]);
  }
  if (state.coder !== undefined) {
    const version = state.coder.version === undefined ? '' : ` ${state.coder.version}`;
    rows.push([
      'coder',
      `${state.coder.displayName} (${state.coder.id}${version}, ${state.coder.kind}) ${palette.dim(`chosen by ${describeCoderSource(state.coder.source)}`)}`,
    ]);
  }
  if (state.sandbox !== undefined) {
    rows.push([
      'sandbox',
      state.sandbox.kind === 'bubblewrap'
        ? `bubblewrap${state.sandbox.gateNetwork ? '' : ' (command gates without network)'}`
        : palette.yellow(`none: ${state.sandbox.reason ?? 'not sandboxed'}`),
    ]);
  }
  if (state.models !== undefined) {
    for (const role of ['judging', 'classifier', 'coder'] as const) {
      const choice = state.models[role];
      rows.push([
        `${role} model`,
        `${describeModel(choice.model, choice.source)} ${palette.dim(`(${describeModelSource(choice.source)})`)}`,
      ]);
    }
  }
  const stages = stageTimings(state);
  if (stages.length > 0) {
    rows.push([
      'stages',
      stages
        .map(
          ({ stage, durationMs }) =>
            `${stage} ${durationMs === undefined ? '…' : formatDuration(durationMs)}`,
        )
        .join(', '),
    ]);
  }
  lines.push(formatTable(rows, { indent: '  ' }));
  const verdicts = verdictTable(state.verdicts, palette);
  if (verdicts !== undefined) lines.push('', verdicts);
  const usage = usageTable(state.usage, palette);
  if (usage !== undefined) lines.push('', usage);
  const budget = budgetLines(state, palette);
  if (budget.length > 0) lines.push('', ...budget);

  const commits: string[][] = [];
  if (state.isolation !== undefined) {
    commits.push([
      'base',
      shortSha(state.isolation.baseCommit),
      `${branchName(state.isolation.baseRef) ?? ''} when the job started`,
    ]);
  }
  for (const attempt of state.attempts) {
    commits.push([
      `attempt ${attempt.attempt}`,
      shortSha(attempt.commit),
      `${attempt.status}, ${attempt.changedFiles.length} file(s), ${formatDuration(attempt.durationMs)}`,
    ]);
  }
  if (state.landing !== undefined) {
    commits.push([
      'landing',
      shortSha(state.landing.mergeCommit),
      `${state.landing.outcome} (${state.landing.strategy})`,
    ]);
  }
  if (commits.length > 0)
    lines.push('', formatTable([['commit', 'sha', ''], ...commits], { indent: '  ', header: palette.dim }));
  for (const decision of state.decisions) {
    lines.push(
      `  ${decision.action} by ${decision.by} at ${decision.at}${decision.reason === undefined ? '' : `: ${decision.reason}`}`,
    );
  }
  if (state.error !== undefined)
    lines.push('', `  ${palette.red('error')} ${state.error.code}: ${state.error.message}`);
  if (state.isolation !== undefined && state.status !== 'done') {
    lines.push('', `  branch    ${state.isolation.branch}`, `  worktree  ${state.isolation.worktreePath}`);
  }
  lines.push(`  transcript ${details.transcriptPath} (${details.transcriptBytes} bytes)`);
  return `${lines.join('\n')}\n`;
}
