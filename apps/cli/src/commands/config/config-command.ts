import type { Command } from '@commander-js/extra-typings';
import type { CommandRuntime } from '../command-runtime.js';
import type { ConfigActionName } from './config-action.js';

/** `snodo config …`: provider keys and settings in `$SNODO_HOME/config.yml` (mode 0600). */
export function registerConfigCommand(program: Command, runtime: CommandRuntime): void {
  const config = program
    .command('config')
    .description('manage $SNODO_HOME/config.yml: provider keys, models, coder settings');
  const run = async (
    name: ConfigActionName,
    parameters: readonly string[],
    flags: Record<string, unknown>,
  ) => {
    const { configAction } = await import('./config-action.js');
    runtime.setExitCode(await configAction(runtime.context, name, parameters, flags));
  };
  config
    .command('add')
    .description(
      'store a provider API key (omit it to type it at a prompt that does not echo, or pipe it in)',
    )
    .argument('<provider>', 'the provider name in model strings: anthropic, openai, google, openrouter…')
    .argument('[key]', 'the API key')
    .option('--env <variable>', 'also record the environment variable that carries this key')
    .option('--base-url <url>', "the provider's endpoint (OpenAI-compatible proxies, local servers)")
    .action((provider, key, options) =>
      run('add', key === undefined ? [provider] : [provider, key], options),
    );
  config
    .command('set')
    .description('set a value, e.g. snodo config set llm.validator.model anthropic/claude-sonnet-4-5')
    .argument('<key>', 'a dotted key (snodo config show lists the file; an unknown key lists the valid ones)')
    .argument('<value>', 'the value, read as the key’s type')
    .action((key, value) => run('set', [key, value], {}));
  config
    .command('get')
    .description('print one value (secrets masked)')
    .argument('<key>', 'a dotted key')
    .option('--json', 'print the value as JSON')
    .action((key, options) => run('get', [key], options));
  config
    .command('unset')
    .description('remove one value')
    .argument('<key>', 'a dotted key')
    .action((key) => run('unset', [key], {}));
  config
    .command('show')
    .description('print the whole config with keys masked, and the provider keys found in the environment')
    .option('--json', 'print it as JSON')
    .action((options) => run('show', [], options));
  config
    .command('remove')
    .description("remove a provider's stored key and settings")
    .argument('<provider>', 'the provider name')
    .action((provider) => run('remove', [provider], {}));
  config
    .command('keys')
    .description('list every key `snodo config set` accepts (<placeholders> are names you choose)')
    .action(() => run('keys', [], {}));
  config
    .command('path')
    .description('print where the config file is')
    .action(async () => {
      const { configPathAction } = await import('./config-path-action.js');
      runtime.setExitCode(configPathAction(runtime.context));
    });
}
