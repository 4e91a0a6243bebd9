import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { createCoderRegistry, loadConfigCoderRegistrations } from '../coders/index.js';
import { ConfigStore, worktreesDirectory } from '../config/index.js';
import { ProtocolNotFoundError } from '../errors.js';
import { BUILT_IN_PREDICATE_NAMES } from '../gates/index.js';
import { collectKnownSecrets } from '../pipeline/known-secrets.js';
import type { CoderCatalog } from '../pipeline/run-task-options.js';
import { loadProtocol, protocolCacheDirectory, protocolExecutionSchema } from '../protocol/index.js';
import { detectSandbox, startSandboxProbe } from '../sandbox/detect-sandbox.js';
import { resolveSandboxSetting, sandboxExecutable } from '../sandbox/sandbox-setting.js';
import { findMainCheckout } from './find-main-checkout.js';
import type { Project, ProjectProtocol, ProjectRepository } from './project.js';

export { findMainCheckout } from './find-main-checkout.js';

/** What `openProject` needs: where snodo was started, its environment, and the application's coders. */
export interface OpenProjectOptions {
  /** A directory inside the repository (usually `process.cwd()`), or anywhere for doctor and validate. */
  readonly cwd: string;
  /** The coders the application makes available (the CLI's built-in list). */
  readonly coders: CoderCatalog;
  /** The environment to read keys, `SNODO_HOME` and `PATH` from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The user's home directory. Default `os.homedir()`. */
  readonly homeDirectory?: string | undefined;
  /** Treat unknown protocol keys as errors. */
  readonly strict?: boolean | undefined;
  /** Who acts, for the audit log. Default: the OS user name. */
  readonly actor?: string | undefined;
}

function defaultActor(env: Readonly<Record<string, string | undefined>>): string {
  try {
    return env.USER ?? userInfo().username;
  } catch {
    return 'unknown';
  }
}

async function loadProjectProtocol(
  repository: ProjectRepository | undefined,
  repositoryError: unknown,
  options: { strict: boolean; registeredCoders: readonly string[]; snodoHome: string },
): Promise<ProjectProtocol> {
  if (repository === undefined) {
    const error = repositoryError instanceof Error ? repositoryError : new Error(String(repositoryError));
    return { state: 'missing', path: undefined, error };
  }
  // The protocol always comes from the main checkout, never from a worktree, so a coder cannot change
  // the rules it is judged by.
  const path = join(repository.root, '.snodo', 'protocol.yml');
  try {
    const loaded = await loadProtocol(path, {
      fileName: existsSync(path) ? '.snodo/protocol.yml' : path,
      strict: options.strict,
      registeredCoders: options.registeredCoders,
      knownPredicates: [...BUILT_IN_PREDICATE_NAMES],
      cacheDirectory: protocolCacheDirectory(options.snodoHome, repository.gitCommonDirectory),
    });
    return {
      state: 'loaded',
      path,
      protocol: loaded.protocol,
      warnings: loaded.warnings,
      declaresMergeStrategy: loaded.declaresMergeStrategy,
    };
  } catch (error) {
    if (ProtocolNotFoundError.isInstance(error)) return { state: 'missing', path, error };
    return { state: 'invalid', path, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/**
 * Opens the project snodo was started in, once per command: config (an invalid one throws
 * `CONFIG_INVALID`), the coder registry (the application's coders plus those declared in config), the
 * protocol of the main checkout, the sandbox setting and whether bubblewrap works here, and the secrets
 * to mask. Outside a repository, or with a missing or invalid protocol, it still opens (for `snodo doctor`,
 * `snodo coders`): the protocol's `error` is what a run throws.
 */
export async function openProject(options: OpenProjectOptions): Promise<Project> {
  const env = options.env ?? process.env;
  const home = options.homeDirectory ?? homedir();
  const configStore = ConfigStore.fromEnvironment({ env, homedir: home });
  const loadedConfig = configStore.load();
  const config = loadedConfig.config;
  // The sandbox probe (one bwrap start, tens of milliseconds) runs while the repository, the coders and
  // the protocol are read; `detectSandbox` below gets the same cached answer. Under a protocol that turns
  // the sandbox off the answer goes unused.
  void startSandboxProbe(sandboxExecutable(config, env), env);
  let repositoryError: unknown;
  const repository = await findMainCheckout(options.cwd).then(
    (found): ProjectRepository => ({ root: found.root, gitCommonDirectory: found.commonDirectory }),
    (error: unknown) => {
      repositoryError = error;
      return undefined;
    },
  );
  const registry = createCoderRegistry({
    registrations: [
      ...options.coders.registrations,
      // A package coder's name, kind and model prefix are its own: read from the package it names.
      ...(await loadConfigCoderRegistrations({
        coders: config.coders,
        resolveFrom: [
          ...(repository === undefined ? [] : [repository.root]),
          ...(options.coders.packageSearchDirectories ?? []),
        ],
      })),
    ],
    defaultCoderId: options.coders.defaultCoderId,
    mockCoderId: options.coders.mockCoderId,
    settings: config.coders ?? {},
  });
  const protocol = await loadProjectProtocol(repository, repositoryError, {
    strict: options.strict ?? false,
    registeredCoders: registry.list().map((registration) => registration.id),
    snodoHome: configStore.home,
  });
  const sandboxSetting = resolveSandboxSetting({
    // Without a protocol the schema's defaults apply, as they would to a protocol that sets nothing.
    execution: protocol.state === 'loaded' ? protocol.protocol.execution : protocolExecutionSchema.parse({}),
    config,
    env,
  });
  return {
    cwd: options.cwd,
    env,
    homeDirectory: home,
    snodoHome: configStore.home,
    worktreesDirectory: worktreesDirectory({
      home: configStore.home,
      homedir: home,
      worktreesDir: config.worktrees_dir,
    }),
    configStore,
    config,
    configWarnings: loadedConfig.warnings,
    registry,
    actor: options.actor ?? defaultActor(env),
    repository,
    protocol,
    sandbox: { setting: sandboxSetting, availability: await detectSandbox(sandboxSetting, env) },
    knownSecrets: collectKnownSecrets({ config, env, snodoHome: configStore.home }),
  };
}
