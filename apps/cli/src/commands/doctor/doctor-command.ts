import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';

/** `snodo doctor`: checks everything a run needs, with a fix per problem. */
export function registerDoctorCommand(program: Command, runtime: CommandRuntime): void {
  program
    .command('doctor')
    .description('check git, node, this repository, the protocol, config, the signing key and the coders')
    .option('--json', 'print the checks as JSON')
    .action(async (options) => {
      const { doctorAction } = await import('./doctor-action.js');
      runtime.setExitCode(await doctorAction(runtime.context, options));
    });
}
