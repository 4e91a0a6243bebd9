import { pruneJobs } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { formatTable } from '../../output/table.js';
import { taskOptions } from './task-options.js';

/** The flags of `snodo task prune`. */
export interface TaskPruneFlags {
  readonly olderThan?: number | undefined;
  readonly force?: boolean | undefined;
  readonly dryRun?: boolean | undefined;
  readonly json?: boolean | undefined;
}

const REASONS: Readonly<Record<string, string>> = {
  running: 'still running',
  'too-recent': 'too recent',
  dirty: 'uncommitted changes (use --force)',
  'nothing-kept': 'nothing kept',
};

/** `snodo task prune`: discards kept jobs as `abandon` would, one by one; `--dry-run` only lists them. */
export async function taskPruneAction(context: CliContext, flags: TaskPruneFlags): Promise<number> {
  const results = await pruneJobs({
    ...taskOptions(context),
    ...(flags.olderThan === undefined ? {} : { olderThanMs: flags.olderThan }),
    force: flags.force === true,
    dryRun: flags.dryRun === true,
  });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify({ results }, null, 2)}\n`);
    return EXIT_CODES.done;
  }
  const { out } = context;
  if (results.length === 0) {
    context.stdout.write(`${out.dim('Nothing to prune: no kept jobs.')}\n`);
    return EXIT_CODES.done;
  }
  const rows = [
    ['job', 'action', 'why'],
    ...results.map((result) => [
      result.jobId,
      result.action === 'skipped' ? out.dim('skipped') : result.action,
      result.reason === undefined ? '' : (REASONS[result.reason] ?? result.reason),
    ]),
  ];
  context.stdout.write(`${formatTable(rows, { header: out.dim })}\n`);
  if (flags.dryRun === true) context.stdout.write(`${out.dim('(dry run: nothing was changed)')}\n`);
  return EXIT_CODES.done;
}
