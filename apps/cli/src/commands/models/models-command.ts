import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';

/** `snodo models`: the committed price catalog. */
export function registerModelsCommand(program: Command, runtime: CommandRuntime): void {
  program
    .command('models')
    .description('the price catalog snodo computes costs with, in US dollars per million tokens')
    .option('--provider <name>', 'only this provider (anthropic, openai, google, openrouter…)')
    .option('--search <text>', 'only models whose name contains this text')
    .option('--json', 'print the catalog as JSON')
    .action(async (options) => {
      const { modelsAction } = await import('./models-action.js');
      runtime.setExitCode(await modelsAction(runtime.context, options));
    });
}
