import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';

/** `snodo meta <job>`: one screen about one job. */
export function registerMetaCommand(program: Command, runtime: CommandRuntime): void {
  program
    .command('meta')
    .description(
      'one screen about a job: task, outcome, stage times, coder, models, tokens, cost, verdicts, commits',
    )
    .argument('<job>', 'a job id, a unique beginning of one, or "last"')
    .option('--json', 'print the job record (state, request, transcript, gate files) as JSON')
    .action(async (job, options) => {
      const { metaAction } = await import('./meta-action.js');
      runtime.setExitCode(await metaAction(runtime.context, job, options));
    });
}
