import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { OpencodeCliCoderConfig } from './opencode-cli-settings.js';

/** The provider id snodo declares for `coder_config.base_url`. */
export const SNODO_PROVIDER_ID = 'snodo';

/**
 * Names that would change where or how OpenCode runs if a user's `coders.opencode-cli.env` let them
 * through: another endpoint (`*_BASE_URL`), another config, auth or database (`OPENCODE_*`), and the
 * `OPENCODE=1` marker OpenCode sets for the commands it runs (snodo started from inside OpenCode). The SDK
 * removes them (credential variables are kept); the adapter sets what it needs itself.
 */
export const OPENCODE_CLI_DROPPED_VARIABLES = /^(?:.*_BASE_URL|OPENCODE|OPENCODE_.*)$/;

/** What the OpenCode configuration of one run is built from. */
export interface OpencodeCliRunConfigOptions {
  /** The worktree. */
  readonly workspace: string;
  /** The instructions file's name in the worktree. */
  readonly instructionsFileName: string;
  /** The coder's model (`provider/model`), when one was given. */
  readonly model: string | undefined;
  /** The adapter's `coder_config`. */
  readonly config: OpencodeCliCoderConfig;
}

/**
 * The configuration snodo hands OpenCode through `OPENCODE_CONFIG_CONTENT`, merged over whatever else
 * OpenCode loads:
 * - `permission`: edits and shell commands allowed without asking (nobody can answer in a headless run,
 *   and `opencode run` rejects what would ask), web fetches allowed, paths outside the worktree denied;
 * - `instructions`: snodo's instructions file, and the project's own AGENTS.md, by absolute path (with
 *   project config disabled OpenCode neither finds AGENTS.md itself nor resolves relative entries);
 * - no auto-update, no sharing, no snapshots (OpenCode's own git copy of the worktree; snodo's branch
 *   already records every change);
 * - with `base_url`: an OpenAI-compatible provider `snodo` serving the requested model, used for the
 *   session title as well, so no request goes to OpenCode's default hosted model.
 */
export function opencodeCliRunConfig(options: OpencodeCliRunConfigOptions): Record<string, unknown> {
  const content: Record<string, unknown> = {
    $schema: 'https://opencode.ai/config.json',
    permission: { edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'deny' },
    instructions: [
      path.join(options.workspace, ...options.instructionsFileName.split('/')),
      path.join(options.workspace, 'AGENTS.md'),
    ],
    autoupdate: false,
    share: 'disabled',
    snapshot: false,
  };
  const baseUrl = options.config.baseUrl;
  if (baseUrl !== undefined) {
    const prefix = `${SNODO_PROVIDER_ID}/`;
    const modelId =
      options.model === undefined
        ? 'default'
        : options.model.startsWith(prefix)
          ? options.model.slice(prefix.length)
          : options.model;
    content.provider = {
      [SNODO_PROVIDER_ID]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'snodo',
        options: { baseURL: baseUrl, apiKey: `{env:${options.config.apiKeyEnv}}` },
        models: { [modelId]: {} },
      },
    };
    content.model = `${prefix}${modelId}`;
    content.small_model = `${prefix}${modelId}`;
  }
  return content;
}

/** What `opencodeCliEnvironment` adds for one run. */
export interface OpencodeCliEnvironmentOptions {
  /** The private directory holding the XDG directories (hermetic runs). */
  readonly privateDirectory: string;
  /** The adapter's `coder_config`. */
  readonly config: OpencodeCliCoderConfig;
  /** `opencodeCliRunConfig`'s result. */
  readonly runConfig: Record<string, unknown>;
}

/**
 * The variables added over the request's environment. Always: the run's configuration, no auto-update,
 * no sharing, no language-server downloads. Hermetic runs also get private XDG directories (OpenCode keeps
 * config, auth, sessions, logs and caches there), no project config, no models.dev fetch (the catalog built
 * into the binary is used) and no Claude Code compatibility (no `~/.claude/CLAUDE.md` or skills).
 */
export function opencodeCliEnvironment(options: OpencodeCliEnvironmentOptions): Record<string, string> {
  const added: Record<string, string> = {
    OPENCODE_CONFIG_CONTENT: JSON.stringify(options.runConfig),
    OPENCODE_DISABLE_AUTOUPDATE: 'true',
    OPENCODE_DISABLE_SHARE: 'true',
    OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
  };
  if (!options.config.hermetic) return added;
  const xdg = (name: string) => path.join(options.privateDirectory, name);
  return {
    ...added,
    XDG_CONFIG_HOME: xdg('config'),
    XDG_DATA_HOME: xdg('data'),
    XDG_CACHE_HOME: xdg('cache'),
    XDG_STATE_HOME: xdg('state'),
    OPENCODE_DISABLE_PROJECT_CONFIG: 'true',
    OPENCODE_DISABLE_MODELS_FETCH: 'true',
    OPENCODE_DISABLE_CLAUDE_CODE: 'true',
  };
}

/** Creates the private XDG directories of a hermetic run. */
export async function prepareOpencodeCliDirectories(privateDirectory: string): Promise<void> {
  for (const name of ['config', 'data', 'cache', 'state']) {
    await mkdir(path.join(privateDirectory, name), { recursive: true, mode: 0o700 });
  }
}
