import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';

/** `snodo coders`: every registered coder and whether it can run here. */
export function registerCodersCommand(program: Command, runtime: CommandRuntime): void {
  program
    .command('coders')
    .description('list the registered coders: kind, installed, version, credentials, install hint')
    .option('--json', 'print the list as JSON')
    .action(async (options) => {
      const { codersAction } = await import('./coders-action.js');
      runtime.setExitCode(await codersAction(runtime.context, options));
    });
}
