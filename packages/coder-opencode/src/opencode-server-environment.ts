import path from 'node:path';
import type { OpencodeRunConfig } from './opencode-config.js';

/**
 * Permission rules for an unattended run. A rule that resolves to "ask" would stop the session until a
 * human answers, which never happens here, so everything the agent needs inside the worktree is allowed
 * and everything that reaches outside it (other directories, the web) or waits for a person is denied.
 * `coders.opencode.permission` is laid over these.
 */
export const UNATTENDED_PERMISSIONS: Readonly<Record<string, unknown>> = {
  edit: 'allow',
  bash: 'allow',
  external_directory: 'deny',
  webfetch: 'deny',
  websearch: 'deny',
  question: 'deny',
  doom_loop: 'deny',
};

/** What the server's environment is built from. */
export interface ServerEnvironmentOptions {
  readonly config: OpencodeRunConfig;
  /** The model of this run as `provider/model`, when one is set. */
  readonly model: string | undefined;
  /** Absolute path of snodo's instructions file, read by OpenCode as an extra instructions file. */
  readonly instructionsFilePath: string;
  /** The server password (Basic auth). */
  readonly password: string;
  /** Where the private config, data, cache and state directories go (hermetic runs). */
  readonly stateDirectory: string;
}

/**
 * OpenCode's config for a server snodo starts (`OPENCODE_CONFIG_CONTENT`): the providers from
 * `provider_config`, the run's model as both `model` and `small_model` (so side requests such as session
 * titles never fall back to a hosted default model), the unattended permissions, snodo's instructions
 * file, no auto-update and no sharing.
 */
export function buildServerConfig(
  options: Omit<ServerEnvironmentOptions, 'password' | 'stateDirectory'>,
): Record<string, unknown> {
  const { config, model } = options;
  return {
    autoupdate: false,
    share: 'disabled',
    ...(config.providerConfig === undefined ? {} : { provider: config.providerConfig }),
    ...(model === undefined ? {} : { model, small_model: model }),
    permission: { ...UNATTENDED_PERMISSIONS, ...(config.permission ?? {}) },
    instructions: [options.instructionsFilePath],
  };
}

/**
 * The variables that make a server snodo starts hermetic and unattended, added to the coder's own
 * environment: the password, the config above, auto-update and the models.dev download off (OpenCode
 * ships a snapshot of the model list), project config files off (a repository cannot reconfigure the
 * agent that works on it), and, unless `hermetic: false`, private XDG directories so the user's own
 * OpenCode config, logins and sessions stay out of the run.
 */
export function buildServerEnvironment(options: ServerEnvironmentOptions): Record<string, string> {
  const xdg = (name: string) => path.join(options.stateDirectory, name);
  return {
    OPENCODE_SERVER_PASSWORD: options.password,
    OPENCODE_SERVER_USERNAME: 'opencode',
    OPENCODE_CONFIG_CONTENT: JSON.stringify(buildServerConfig(options)),
    OPENCODE_DISABLE_AUTOUPDATE: 'true',
    OPENCODE_DISABLE_MODELS_FETCH: 'true',
    OPENCODE_DISABLE_PROJECT_CONFIG: 'true',
    ...(options.config.hermetic
      ? {
          XDG_CONFIG_HOME: xdg('config'),
          XDG_DATA_HOME: xdg('data'),
          XDG_CACHE_HOME: xdg('cache'),
          XDG_STATE_HOME: xdg('state'),
        }
      : {}),
  };
}
