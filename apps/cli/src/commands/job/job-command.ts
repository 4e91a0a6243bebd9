import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';
import { parsePositiveInteger } from '../option-parsers.js';

const JOB_ARGUMENT = 'a job id, a unique beginning of one, or "last"';

/** `snodo job …`: follow and control running jobs, above all `snodo run --background` ones. */
export function registerJobCommand(program: Command, runtime: CommandRuntime): void {
  const job = program.command('job').description('wait for, cancel, list and inspect jobs (background runs)');
  const context = runtime.context;
  const done = (code: number) => runtime.setExitCode(code);

  job
    .command('list')
    .description('the jobs of this repository (the same as `snodo task list`)')
    .option('--json', 'print the list as JSON')
    .action(async (options) => {
      const { taskListAction } = await import('../task/task-list-action.js');
      done(await taskListAction(context, options));
    });
  job
    .command('status')
    .description('everything about one job (the same as `snodo task show`; a queue job: read from the queue)')
    .argument('<job>', JOB_ARGUMENT)
    .option('--json', 'print the job record as JSON')
    .action(async (reference, options) => {
      const { queueStatusAction } = await import('../queue/queue-status-action.js');
      const queued = await queueStatusAction(context, reference, options);
      if (queued !== undefined) return done(queued);
      const { taskShowAction } = await import('../task/task-show-action.js');
      done(await taskShowAction(context, reference, options));
    });
  job
    .command('wait')
    .description(
      'wait until a job ends; exit with the code its run had (0 done, 1 halted, 3 failed, 130 cancelled)',
    )
    .argument('<job>', JOB_ARGUMENT)
    .option('--timeout <seconds>', 'give up after this long (exit 3; the job goes on)', parsePositiveInteger)
    .option('--json', "print the job's final state as JSON")
    .action(async (reference, options) => {
      const { queueWaitAction } = await import('../queue/queue-status-action.js');
      const queued = await queueWaitAction(context, reference, options);
      if (queued !== undefined) return done(queued);
      const { jobWaitAction } = await import('./job-wait-action.js');
      done(await jobWaitAction(context, reference, options));
    });
  job
    .command('cancel')
    .description('stop a running job: its coder is killed, the job is kept as cancelled (audited)')
    .argument('<job>', JOB_ARGUMENT)
    .option('--reason <text>', 'why, for the audit log')
    .option('--json', "print the job's state as JSON")
    .action(async (reference, options) => {
      const { jobCancelAction } = await import('./job-cancel-action.js');
      done(await jobCancelAction(context, reference, options));
    });
  // The detached process `snodo run --background` starts; not for people.
  job
    .command('run-detached', { hidden: true })
    .argument('<job>')
    .action(async (jobId) => {
      const { runDetachedAction } = await import('./run-detached-action.js');
      done(await runDetachedAction(context, jobId));
    });
}
