/**
 * What `checkAvailability` is told. Core passes the environment the coder would run with (already filtered
 * and with this coder's credentials injected), and any configured binary path.
 */
export interface CoderV1AvailabilityOptions {
  /** The environment the coder would run with: allow-listed variables plus this coder's credentials. */
  readonly env: Readonly<Record<string, string>>;
  /** An explicit executable path from config (`coders.<id>.binary`); otherwise the binary is found on PATH. */
  readonly binaryPath?: string;
  /**
   * The model the coder would run with (prefix stripped), when known. Coders whose credential depends on
   * the model's provider check for that provider's key.
   */
  readonly model?: string;
  /** The settings the coder would run with (the request's `coderConfig`). */
  readonly coderConfig?: Readonly<Record<string, unknown>>;
}

/**
 * The answer to "can this coder run here?", shown by `snodo coders` and `snodo doctor` and checked by core
 * before a run starts.
 */
export interface CoderV1Availability {
  /** `true` when the coder can run now: installed, a supported version, credentials present or optional. */
  readonly ready: boolean;
  /** Whether what the coder needs is installed (always `true` for coders that need nothing installed). */
  readonly installed: boolean;
  /** The executable found, for coders that run one. */
  readonly binaryPath?: string;
  /** The version the CLI reported (`2.1.328`), when it has one. */
  readonly version?: string;
  /** Whether the installed version is inside the adapter's verified range; `undefined` when not checked. */
  readonly versionSupported?: boolean;
  /** Where the credential was found, or `missing`. `not-needed` when the coder needs none. */
  readonly credentials: 'environment' | 'config' | 'cli-login' | 'not-needed' | 'missing';
  /** Why the coder is not ready, in one sentence; absent when ready. */
  readonly reason?: string;
  /** The command or step that fixes it (`npm install -g @openai/codex`, `snodo config add openai <key>`). */
  readonly fix?: string;
}
