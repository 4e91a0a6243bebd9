import { type Command, Option } from '@commander-js/extra-typings';
import { parseCapValue } from '../budget-option-parsers.js';
import type { CommandRuntime } from '../command-runtime.js';
import { parseDuration } from '../option-parsers.js';
import { MERGE_STRATEGIES } from '../run/run-command.js';

const JOB_ARGUMENT = 'a job id, a unique beginning of one, or "last"';

/** `snodo task …`: list and manage the jobs of this repository (kept ones above all). */
export function registerTaskCommand(program: Command, runtime: CommandRuntime): void {
  const task = program.command('task').description('list, inspect, merge, approve, reject or discard jobs');
  const context = runtime.context;
  const done = (code: number) => runtime.setExitCode(code);

  task
    .command('list')
    .description('the jobs of this repository: id, status, outcome, age, task, branch')
    .option('--json', 'print the list as JSON')
    .action(async (options) => {
      const { taskListAction } = await import('./task-list-action.js');
      done(await taskListAction(context, options));
    });
  task
    .command('show')
    .description('everything about one job, with each verdict and the next steps')
    .argument('<job>', JOB_ARGUMENT)
    .option('--json', 'print the job record as JSON')
    .action(async (job, options) => {
      const { taskShowAction } = await import('./task-show-action.js');
      done(await taskShowAction(context, job, options));
    });
  task
    .command('diff')
    .description("the job's change: its task branch against the commit it started from")
    .argument('<job>', JOB_ARGUMENT)
    .option('--stat', 'only the changed files')
    .option('--json', 'print the files and the patch as JSON')
    .action(async (job, options) => {
      const { taskDiffAction } = await import('./task-diff-action.js');
      done(await taskDiffAction(context, job, options));
    });
  task
    .command('merge')
    .description(
      'land a job whose gates passed but whose merge did not finish (deferred, conflict, kept branch)',
    )
    .argument('<job>', JOB_ARGUMENT)
    .addOption(new Option('--strategy <strategy>', 'how to land it').choices(MERGE_STRATEGIES))
    .option('--json', 'print the result as JSON')
    .action(async (job, options) => {
      const { taskContinueAction } = await import('./task-continue-action.js');
      done(await taskContinueAction(context, 'merge', job, options));
    });
  task
    .command('approve')
    .description('approve an escalated job: the decision is audited and the job lands')
    .argument('<job>', JOB_ARGUMENT)
    .requiredOption('--reason <text>', 'why, for the audit log')
    .option('--budget <usd>', 'a job stopped at its budget: go on under this dollar cap', parseCapValue)
    .option('--max-tokens <n>', 'a job stopped at its budget: go on under this token cap', parseCapValue)
    .option('--json', 'print the result as JSON')
    .action(async (job, options) => {
      const { taskContinueAction } = await import('./task-continue-action.js');
      done(await taskContinueAction(context, 'approve', job, options));
    });
  task
    .command('reject')
    .description('reject a halted job: the decision is audited, the branch stays until abandoned')
    .argument('<job>', JOB_ARGUMENT)
    .option('--reason <text>', 'why, for the audit log')
    .option('--json', 'print the job state as JSON')
    .action(async (job, options) => {
      const { taskRejectAction } = await import('./task-decision-action.js');
      done(await taskRejectAction(context, job, options));
    });
  task
    .command('abandon')
    .description("discard a job's worktree and branch (never one with uncommitted changes without --force)")
    .argument('<job>', JOB_ARGUMENT)
    .option('--force', 'also discard uncommitted changes in its worktree')
    .option('--json', 'print what was removed as JSON')
    .action(async (job, options) => {
      const { taskAbandonAction } = await import('./task-decision-action.js');
      done(await taskAbandonAction(context, job, options));
    });
  task
    .command('prune')
    .description('discard kept jobs, optionally only those older than a duration')
    .option(
      '--older-than <duration>',
      'only jobs that ended longer ago than this (7d, 12h, 30m)',
      parseDuration,
    )
    .option('--force', 'also discard worktrees with uncommitted changes')
    .option('--dry-run', 'list what would be discarded and change nothing')
    .option('--json', 'print the results as JSON')
    .action(async (options) => {
      const { taskPruneAction } = await import('./task-prune-action.js');
      done(await taskPruneAction(context, options));
    });
}
