import type { ProviderRetryLog } from '../provider/provider-retry-log.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import type { CoderV1Usage } from '../v1/coder-v1-usage.js';

/**
 * What `parseOutput` and `classifyFailure` get: the end of the CLI's output (redacted) and its exit code.
 * `parseOutput` is called after a successful run only; `classifyFailure` after a failed exit (`exitCode`
 * ≠ 0) and again after a successful one, so a CLI's own error report wins over its exit code either way.
 */
export interface SubprocessOutput {
  /** The last part of stdout (up to 1 MiB), where CLIs print their final JSON. */
  readonly stdout: string;
  /** The last part of stderr (up to 64 KiB). */
  readonly stderr: string;
  /** The exit code: 0 after a success; the failure's code (or -1 for a signal) after a failed exit. */
  readonly exitCode: number;
}

/** What an adapter can read from its CLI's output. */
export interface SubprocessParsedOutput {
  /** Token usage and cost, normalised to `CoderV1Usage`. */
  readonly usage?: CoderV1Usage;
  /** The CLI's session id. */
  readonly sessionId?: string;
}

/** What `prepare` found before anything was written; handed to `execute`. */
export interface SubprocessPreparation<Config = Readonly<Record<string, unknown>>> {
  /** The executable that will run. */
  readonly binaryPath: string;
  /** The version it reported, when it reported one. */
  readonly version: string | undefined;
  /** This attempt's `coderConfig`, parsed by the adapter's `configSchema` (as given when it has none). */
  readonly config: Config;
}

/**
 * What `prepareRun` returns: everything one attempt adds, reaching `buildArgv`, `buildEnv`, `onOutput`,
 * `classifyFailure` and `parseOutput` through `SubprocessRun`, never through adapter fields or a WeakMap.
 */
export interface SubprocessRunPreparation<State = undefined> {
  /** Variables added over `request.env` and `buildEnv` (a private home, a settings file's path). */
  readonly env?: Readonly<Record<string, string>>;
  /** Whatever the other hooks need from this attempt (an accumulator, a path); `run.state`. */
  readonly state?: State;
  /**
   * Runs when the attempt ends, however it ends (success, failure, timeout, abort, a throwing hook). It
   * should not throw: an error it throws replaces the attempt's own.
   */
  readonly cleanup?: () => void | Promise<void>;
}

/** One attempt as the hooks see it. */
export interface SubprocessRun<Config = Readonly<Record<string, unknown>>, State = undefined> {
  /** The request as the CLI gets it: `request.env` without the adapter's `droppedVariables`. */
  readonly request: CoderV1Request;
  /** This attempt's `coderConfig`, parsed once by `configSchema` before anything was written. */
  readonly config: Config;
  /** `request.model` without the adapter's `modelPrefix`, or `undefined` for the CLI's default. */
  readonly model: string | undefined;
  /** The `state` `prepareRun` returned (`undefined` without `prepareRun`). */
  readonly state: State;
  /** The version the CLI reported, when it reported one. */
  readonly version: string | undefined;
  /** The provider retries seen so far (see `providerRetries`); empty for a CLI that declares none. */
  readonly retries: ProviderRetryLog;
}
