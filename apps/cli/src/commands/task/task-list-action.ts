import { existsSync } from 'node:fs';
import { type JobState, reconcileAndListJobs } from '@snodo/core/jobs';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { firstLine, formatAge } from '../../output/format.js';
import type { Palette } from '../../output/palette.js';
import { statusColor } from '../../output/run-summary.js';
import { formatTable } from '../../output/table.js';
import { taskOptions } from './task-options.js';

/** The flags of `snodo task list`. */
export interface TaskListFlags {
  readonly json?: boolean | undefined;
}

/** One row of `snodo task list --json`. */
export interface TaskListEntry {
  readonly jobId: string;
  readonly status: string;
  readonly outcome: string | null;
  readonly task: string;
  readonly createdAt: string;
  readonly endedAt: string | null;
  readonly branch: string | null;
  readonly worktreePath: string | null;
  /** `true` while the job's worktree still exists: something to inspect, merge or abandon. */
  readonly kept: boolean;
}

function entryOf(state: JobState): TaskListEntry {
  const isolation = state.isolation;
  return {
    jobId: state.jobId,
    status: state.status,
    outcome: state.outcome ?? null,
    task: state.task,
    createdAt: state.createdAt,
    endedAt: state.endedAt ?? null,
    branch: isolation?.branch ?? null,
    worktreePath: isolation !== undefined && isolation.mode !== 'none' ? isolation.worktreePath : null,
    kept: isolation !== undefined && isolation.mode !== 'none' && existsSync(isolation.worktreePath),
  };
}

function formatList(entries: readonly TaskListEntry[], palette: Palette): string {
  if (entries.length === 0) return `${palette.dim('No jobs yet. Start one: snodo run "<task>" --mock')}\n`;
  const rows = [
    ['job', 'status', 'outcome', 'age', 'task', 'branch'],
    ...entries.map((entry) => [
      entry.jobId,
      statusColor(entry.status, palette)(entry.status),
      entry.outcome ?? '-',
      formatAge(entry.createdAt),
      firstLine(entry.task, 48),
      entry.kept && entry.branch !== null
        ? entry.branch
        : palette.dim(entry.branch === null ? '-' : '(removed)'),
    ]),
  ];
  const kept = entries.filter((entry) => entry.kept).length;
  const footer =
    kept === 0 ? '' : `\n${palette.dim(`${kept} kept: snodo task show <job> · snodo task abandon <job>`)}`;
  return `${formatTable(rows, { header: palette.dim })}${footer}\n`;
}

/** `snodo task list`: every job of the repository, newest first; a job whose process died is `interrupted`. */
export async function taskListAction(context: CliContext, flags: TaskListFlags): Promise<number> {
  // Newest first, as `listJobs` orders them.
  const entries = (await reconcileAndListJobs(taskOptions(context))).jobs.map(entryOf);
  if (flags.json === true) context.stdout.write(`${JSON.stringify({ jobs: entries }, null, 2)}\n`);
  else context.stdout.write(formatList(entries, context.out));
  return EXIT_CODES.done;
}
