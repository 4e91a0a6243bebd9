import { ConfigStore, detectProviderKeys, listConfigKeys } from '@snodo/core/config';
import { stringify } from 'yaml';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { readProviderKey } from './read-secret.js';

/** The subcommands of `snodo config`. */
export type ConfigActionName = 'add' | 'set' | 'get' | 'unset' | 'show' | 'remove' | 'keys';

/**
 * `snodo config add|set|get|unset|show|remove|keys` (`path` has a lean action of its own). Every edit goes
 * through core's `ConfigStore`, which validates the whole file before writing it (0600) and keeps the
 * user's comments. Keys are never printed in full.
 */
export async function configAction(
  context: CliContext,
  name: ConfigActionName,
  parameters: readonly string[],
  flags: Record<string, unknown>,
): Promise<number> {
  const store = ConfigStore.fromEnvironment({ env: context.env, homedir: context.homeDirectory });
  const { stdout, out } = context;
  const done = (message: string) => {
    stdout.write(`${out.green('✔')} ${message}\n`);
    return EXIT_CODES.done;
  };
  switch (name) {
    case 'keys':
      stdout.write(`${listConfigKeys().join('\n')}\n`);
      return EXIT_CODES.done;
    case 'add': {
      const [provider = '', argument] = parameters;
      const key = await readProviderKey(provider, argument);
      store.addProviderKey(provider, key, {
        apiKeyEnv: typeof flags.env === 'string' ? flags.env : undefined,
        baseUrl: typeof flags.baseUrl === 'string' ? flags.baseUrl : undefined,
      });
      return done(`stored the ${provider} key in ${store.configPath()} (mode 0600)`);
    }
    case 'set': {
      const [key = '', value = ''] = parameters;
      store.setConfigValue(key, value);
      return done(`${key} = ${JSON.stringify(store.getConfigValue(key))}`);
    }
    case 'get': {
      const [key = ''] = parameters;
      const value = store.getConfigValue(key);
      if (flags.json === true) stdout.write(`${JSON.stringify(value ?? null, null, 2)}\n`);
      else if (value === undefined) stdout.write(`${out.dim('(not set)')}\n`);
      else if (typeof value === 'object') stdout.write(stringify(value));
      else stdout.write(`${String(value)}\n`);
      return EXIT_CODES.done;
    }
    case 'unset': {
      const [key = ''] = parameters;
      return done(store.unsetConfigValue(key) ? `removed ${key}` : `${key} was not set; nothing changed`);
    }
    case 'remove': {
      const [provider = ''] = parameters;
      return done(
        store.removeProvider(provider)
          ? `removed provider ${provider}`
          : `no provider ${provider} in the config; nothing changed`,
      );
    }
    case 'show': {
      const view = store.showConfig();
      const detected = detectProviderKeys(context.env);
      if (flags.json === true) {
        stdout.write(
          `${JSON.stringify(
            {
              path: view.path,
              exists: view.exists,
              config: view.config,
              warnings: view.warnings,
              environmentKeys: detected,
            },
            null,
            2,
          )}\n`,
        );
        return EXIT_CODES.done;
      }
      stdout.write(`${out.dim(`# ${view.path}${view.exists ? '' : ' (does not exist yet)'}`)}\n`);
      const text = Object.keys(view.config).length === 0 ? '{}\n' : stringify(view.config);
      stdout.write(text);
      for (const warning of view.warnings) {
        stdout.write(
          out.yellow(`warning: ${warning.file}:${warning.line}:${warning.column}: ${warning.message}\n`),
        );
      }
      stdout.write(
        `${out.dim(
          `# provider keys in the environment: ${detected.length === 0 ? '(none)' : detected.join(', ')}`,
        )}\n`,
      );
      return EXIT_CODES.done;
    }
  }
}
