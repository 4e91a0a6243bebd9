import {
  type CoderRegistry,
  ConfigStore,
  createCoderRegistry,
  createConfigCoderRegistrations,
  findMainCheckout,
  type SnodoConfig,
} from '@snodo/core';
import type { CliContext } from '../cli-context.js';
import { builtInCoders } from './built-in-coders.js';

/** The registry and config a command outside a run works with. */
export interface LoadedCoderRegistry {
  readonly registry: CoderRegistry;
  readonly config: SnodoConfig;
  /** The repository, when snodo was started inside one (package coders are looked up there first). */
  readonly repositoryRoot: string | undefined;
  /** The config file's store (`$SNODO_HOME`). */
  readonly store: ConfigStore;
}

/**
 * Builds the coder registry the way a run would (built-in coders plus those declared in config), but works
 * outside a repository too: `snodo coders` and `snodo doctor` are often the first commands someone types.
 */
export async function loadCoderRegistry(context: CliContext): Promise<LoadedCoderRegistry> {
  const repositoryRoot = await findMainCheckout(context.cwd).then(
    (found) => found.root,
    () => undefined,
  );
  const store = ConfigStore.fromEnvironment({ env: context.env, homedir: context.homeDirectory });
  const { config } = store.load();
  const registry = createCoderRegistry({
    registrations: [
      ...builtInCoders.registrations,
      ...createConfigCoderRegistrations({
        coders: config.coders,
        resolveFrom: [
          ...(repositoryRoot === undefined ? [] : [repositoryRoot]),
          ...(builtInCoders.packageSearchDirectories ?? []),
        ],
      }),
    ],
    defaultCoderId: builtInCoders.defaultCoderId,
    mockCoderId: builtInCoders.mockCoderId,
    settings: config.coders ?? {},
  });
  return { registry, config, repositoryRoot, store };
}
