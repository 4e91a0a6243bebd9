import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type CoderRegistry, createCoderRegistry, createConfigCoderRegistrations } from '../coders/index.js';
import { ConfigStore, type SnodoConfig, worktreesDirectory } from '../config/index.js';
import { BUILT_IN_PREDICATE_NAMES } from '../gates/index.js';
import { findGitCommonDirectory, NotAGitRepositoryError } from '../git/index.js';
import { loadProtocol, type Protocol, type ProtocolIssue } from '../protocol/index.js';
import { detectSandbox, type SandboxAvailability } from '../sandbox/detect-sandbox.js';
import { resolveSandboxSetting, type SandboxSetting } from '../sandbox/sandbox-setting.js';
import { collectKnownSecrets } from './known-secrets.js';
import type { RunTaskOptions } from './run-task-options.js';

/** Everything loaded before a job exists. A failure here is bad input (exit 2) and creates no job. */
export interface RunContext {
  /** The main checkout: where `.snodo/` lives, whichever worktree snodo was started in. */
  readonly repositoryRoot: string;
  readonly gitCommonDirectory: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory: string;
  readonly snodoHome: string;
  readonly worktreesDirectory: string;
  readonly config: SnodoConfig;
  readonly configWarnings: readonly ProtocolIssue[];
  readonly protocol: Protocol;
  readonly protocolPath: string;
  readonly protocolWarnings: readonly ProtocolIssue[];
  readonly registry: CoderRegistry;
  readonly actor: string;
  /** The sandbox settings that apply (protocol and config combined) and whether one works here. */
  readonly sandbox: { readonly setting: SandboxSetting; readonly availability: SandboxAvailability };
  /** Credential values snodo holds (config and environment keys, its signing key); never logged. */
  readonly knownSecrets: readonly string[];
}

/** The main checkout of the repository containing `directory`, even from inside a linked worktree. */
export async function findMainCheckout(
  directory: string,
): Promise<{ root: string; commonDirectory: string }> {
  const commonDirectory = await findGitCommonDirectory(directory);
  if (basename(commonDirectory) !== '.git') {
    throw new NotAGitRepositoryError({ directory });
  }
  return { root: dirname(commonDirectory), commonDirectory };
}

function defaultActor(env: Readonly<Record<string, string | undefined>>): string {
  try {
    return env.USER ?? userInfo().username;
  } catch {
    return 'unknown';
  }
}

/** Loads config, protocol and the coder registry for a run or a `snodo task …` command. */
export async function loadRunContext(
  options: Pick<RunTaskOptions, 'cwd' | 'coders' | 'env' | 'homeDirectory' | 'strict' | 'actor'>,
): Promise<RunContext> {
  const env = options.env ?? process.env;
  const home = options.homeDirectory ?? homedir();
  const { root: repositoryRoot, commonDirectory } = await findMainCheckout(options.cwd);
  const store = ConfigStore.fromEnvironment({ env, homedir: home });
  const loadedConfig = store.load();
  const config = loadedConfig.config;

  const registrations = [
    ...options.coders.registrations,
    ...createConfigCoderRegistrations({
      coders: config.coders,
      resolveFrom: [repositoryRoot, ...(options.coders.packageSearchDirectories ?? [])],
    }),
  ];
  const registry = createCoderRegistry({
    registrations,
    defaultCoderId: options.coders.defaultCoderId,
    mockCoderId: options.coders.mockCoderId,
    settings: config.coders ?? {},
  });

  // The protocol always comes from the main checkout, never from a worktree, so a coder cannot change
  // the rules it is judged by.
  const protocolPath = join(repositoryRoot, '.snodo', 'protocol.yml');
  const loadedProtocol = await loadProtocol(protocolPath, {
    fileName: existsSync(protocolPath) ? '.snodo/protocol.yml' : protocolPath,
    strict: options.strict ?? false,
    registeredCoders: registry.list().map((registration) => registration.id),
    knownPredicates: [...BUILT_IN_PREDICATE_NAMES],
  });

  const sandboxSetting = resolveSandboxSetting({
    execution: loadedProtocol.protocol.execution,
    config,
    env,
  });
  return {
    repositoryRoot,
    gitCommonDirectory: commonDirectory,
    env,
    homeDirectory: home,
    snodoHome: store.home,
    worktreesDirectory: worktreesDirectory({
      home: store.home,
      homedir: home,
      worktreesDir: config.worktrees_dir,
    }),
    config,
    configWarnings: loadedConfig.warnings,
    protocol: loadedProtocol.protocol,
    protocolPath,
    protocolWarnings: loadedProtocol.warnings,
    registry,
    actor: options.actor ?? defaultActor(env),
    sandbox: { setting: sandboxSetting, availability: await detectSandbox(sandboxSetting, env) },
    knownSecrets: collectKnownSecrets({ config, env, snodoHome: store.home }),
  };
}
