import { type Command, Option } from '@commander-js/extra-typings';
import { parseCapValue } from '../budget-option-parsers.js';
import type { CommandRuntime } from '../command-runtime.js';
import { parsePositiveInteger } from '../option-parsers.js';

/**
 * `snodo submit "<task>"` and `snodo worker`: many machines on one queue (SPEC §13). Actions are imported on
 * use, so neither BullMQ nor a Redis client loads for any other command.
 */
export function registerQueueCommands(program: Command, runtime: CommandRuntime): void {
  const { context } = runtime;
  program
    .command('submit')
    .description('enqueue a task for the workers on queue.url; prints its job id')
    .argument('<task...>', 'what to do, in words')
    .option(
      '--base <branch>',
      'the branch on the shared remote to start from and land on (default: checked out)',
    )
    .option('--remote <name>', 'the shared remote (default: origin)')
    .option(
      '--id <id>',
      'the job id (default: derived from the task, base and options, so a retry adds nothing)',
    )
    .option('--coder <id>', 'the coder to use')
    .option('-m, --model <model>', 'judging model (provider/model)')
    .option('--mock', 'offline: the mock coder and mock judges')
    .option('--mode <id>', 'the protocol mode to run in')
    .option('--timeout <seconds>', "the coder's wall-clock limit per attempt", parsePositiveInteger)
    .option('--max-cost <usd>', 'stop and ask once the job spent this many dollars', parseCapValue)
    .option('--max-tokens <n>', 'stop and ask once the job used this many tokens', parseCapValue)
    .option('--json', 'print the job id and base as JSON')
    .action(async (words, options) => {
      const { submitAction } = await import('./submit-action.js');
      runtime.setExitCode(await submitAction(context, words.join(' '), options));
    });
  program
    .command('worker')
    .description('run queued tasks in this clone of the shared remote, and land them on it one at a time')
    .option('--concurrency <n>', 'tasks run at once (default 1)', parsePositiveInteger)
    .option('--id <worker>', 'this worker id (default: kept in $SNODO_HOME/worker-id)')
    .addOption(new Option('--remote <name>', 'the shared remote (default: origin)'))
    .action(async (options) => {
      const { workerAction } = await import('./worker-action.js');
      runtime.setExitCode(await workerAction(context, options));
    });
}
