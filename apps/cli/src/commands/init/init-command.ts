import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';

/** Template names, repeated here so `snodo init --help` lists them without loading core. */
const TEMPLATE_NAMES = 'solo (default), team, 2+n, intent';

/** `snodo init`: writes `.snodo/protocol.yml` from a template. */
export function registerInitCommand(program: Command, runtime: CommandRuntime): void {
  program
    .command('init')
    .description('write .snodo/protocol.yml from a template in the current git repository')
    .option('-t, --template <name>', `the protocol template: ${TEMPLATE_NAMES}`)
    .option('-f, --force', 'overwrite an existing .snodo/protocol.yml')
    .option('--json', 'print what was written as JSON')
    .action(async (options) => {
      const { initAction } = await import('./init-action.js');
      runtime.setExitCode(await initAction(runtime.context, options));
    });
}
