import {
  type CoderRegistry,
  type ConfigStore,
  openProject,
  type Project,
  type SnodoConfig,
} from '@snodo/core';
import type { CliContext } from '../cli-context.js';
import { builtInCoders } from './built-in-coders.js';

/** The registry and config a command outside a run works with. */
export interface LoadedCoderRegistry {
  /** The project core opened: the one place the registry and protocol are loaded. */
  readonly project: Project;
  readonly registry: CoderRegistry;
  readonly config: SnodoConfig;
  /** The repository, when snodo was started inside one (package coders are looked up there first). */
  readonly repositoryRoot: string | undefined;
  /** The config file's store (`$SNODO_HOME`). */
  readonly store: ConfigStore;
}

/**
 * Opens the project the way a run would (built-in coders plus those declared in config), but works outside
 * a repository too: `snodo coders` and `snodo doctor` are often the first commands someone types.
 */
export async function loadCoderRegistry(context: CliContext): Promise<LoadedCoderRegistry> {
  const project = await openProject({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    coders: builtInCoders,
  });
  return {
    project,
    registry: project.registry,
    config: project.config,
    repositoryRoot: project.repository?.root,
    store: project.configStore,
  };
}
