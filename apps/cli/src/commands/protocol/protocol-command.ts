import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';

/** `snodo protocol validate`: checks a protocol file and lists every problem with its position. */
export function registerProtocolCommand(program: Command, runtime: CommandRuntime): void {
  const protocol = program.command('protocol').description('check protocol files');
  protocol
    .command('validate')
    .description('check a protocol file; every problem is printed as file:line:column: message')
    .argument('[path]', 'the file to check (default: .snodo/protocol.yml of this repository)')
    .option('--strict', 'treat unknown keys as errors')
    .option('--json', 'print the issues as JSON')
    .action(async (path, options) => {
      const { validateProtocolAction } = await import('./validate-protocol-action.js');
      runtime.setExitCode(await validateProtocolAction(runtime.context, path, options));
    });
}
