import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';

/** `snodo logs <job>`: the coder's transcript. */
export function registerLogsCommand(program: Command, runtime: CommandRuntime): void {
  program
    .command('logs')
    .description("print a job's transcript (the coder's output; a background run's whole output)")
    .argument('<job>', 'a job id, a unique beginning of one, or "last"')
    .option('-f, --follow', 'keep printing new output until the job stops running')
    .action(async (job, options) => {
      const { logsAction } = await import('./logs-action.js');
      runtime.setExitCode(await logsAction(runtime.context, job, options));
    });
}
