import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Variables that would change where or how Gemini CLI runs if a user's `coders.gemini-cli.env` let them
 * through: another endpoint (`*_BASE_URL`), another settings file or home (`GEMINI_CLI_*`), a container
 * sandbox (`GEMINI_SANDBOX*`), the nesting marker Gemini sets inside its own sandbox (`SANDBOX`), a
 * replacement system prompt (`GEMINI_SYSTEM_MD`). The SDK removes them; the adapter sets the ones it needs
 * itself.
 */
export const GEMINI_CLI_DROPPED_VARIABLES =
  /^(?:.*_BASE_URL|GEMINI_CLI_.*|GEMINI_SANDBOX.*|SANDBOX|GEMINI_SYSTEM_MD)$/;

/** What the private Gemini CLI home of one run is made of. */
export interface GeminiCliHomeOptions {
  /** The private directory; becomes `GEMINI_CLI_HOME` (Gemini keeps its settings in `<it>/.gemini/`). */
  readonly directory: string;
  /** The instructions file name in the worktree, read as a context file besides the project's GEMINI.md. */
  readonly instructionsFileName: string;
  /** `coder_config.max_retries` + 1 (`general.maxAttempts`), when set. */
  readonly maxAttempts?: number | undefined;
}

/**
 * The user settings snodo writes for one run. They replace the user's own `~/.gemini/settings.json`:
 * - `security.auth.selectedType`: API-key auth, the only kind a headless run can use without a browser;
 * - `context.fileName`: snodo's instructions file first, then the project's own `GEMINI.md`;
 * - auto-update, update notices, usage statistics and telemetry off; `general.maxAttempts` when configured;
 * - `tools.sandbox: false`: Gemini's Docker/Podman/seatbelt sandbox cannot start inside a container, and
 *   snodo's worktree is the isolation (`GEMINI_SANDBOX=false` in the environment says it again, and wins).
 *
 * NOTE: a repository's own `.gemini/settings.json` is loaded after these (the worktree is trusted) and wins
 * for the keys it sets; one that sets `context.fileName` hides snodo's file, whose text still reaches the
 * model inside the prompt.
 */
export function geminiCliSettings(
  instructionsFileName: string,
  maxAttempts?: number | undefined,
): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    context: { fileName: [instructionsFileName, 'GEMINI.md'] },
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      ...(maxAttempts === undefined ? {} : { maxAttempts }),
    },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    tools: { sandbox: false },
  };
}

/** Creates `<directory>/.gemini/settings.json` with `geminiCliSettings`. */
export async function prepareGeminiCliHome(options: GeminiCliHomeOptions): Promise<void> {
  const configDirectory = path.join(options.directory, '.gemini');
  await mkdir(configDirectory, { recursive: true, mode: 0o700 });
  await writeFile(
    path.join(configDirectory, 'settings.json'),
    `${JSON.stringify(geminiCliSettings(options.instructionsFileName, options.maxAttempts), null, 2)}\n`,
    { mode: 0o600 },
  );
}

/** What `geminiCliEnvironment` adds for one run. */
export interface GeminiCliEnvironmentOptions {
  /** The private home (`GEMINI_CLI_HOME`). */
  readonly homeDirectory: string;
  /** `coder_config.base_url`, when set. */
  readonly baseUrl: string | undefined;
  /** The request's environment, to find the key. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The variables added over the request's environment: the private home, no self-relaunch (Gemini CLI
 * otherwise re-executes itself with a bigger heap, a second process snodo did not start), a trusted
 * worktree (needed for `--approval-mode yolo`), no container sandbox, the configured endpoint, and
 * `GEMINI_API_KEY` taken from `GOOGLE_API_KEY` when only that one is set (Gemini CLI reads only the
 * former for API-key auth).
 */
export function geminiCliEnvironment(options: GeminiCliEnvironmentOptions): Record<string, string> {
  const added: Record<string, string> = {
    GEMINI_CLI_HOME: options.homeDirectory,
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_SANDBOX: 'false',
  };
  if (options.baseUrl !== undefined) added.GOOGLE_GEMINI_BASE_URL = options.baseUrl;
  const key = options.env.GEMINI_API_KEY ?? '';
  const fallback = options.env.GOOGLE_API_KEY ?? '';
  if (key === '' && fallback !== '') added.GEMINI_API_KEY = fallback;
  return added;
}
