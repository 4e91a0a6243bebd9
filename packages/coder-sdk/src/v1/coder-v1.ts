import type { CoderV1Availability, CoderV1AvailabilityOptions } from './coder-v1-availability.js';
import type { CoderV1Credentials } from './coder-v1-credentials.js';
import type { CoderV1Request } from './coder-v1-request.js';
import type { CoderV1Result } from './coder-v1-result.js';

/**
 * How a coder delivers its change.
 *
 * - `engine-managed`: the coder returns file proposals; snodo's core checks every path, writes the files into
 *   the worktree and makes the commit. The model never touches the filesystem itself (litellm, mock).
 * - `in-place`: the coder edits the worktree itself (a CLI such as Claude Code or OpenCode) and its adapter
 *   makes exactly one commit of what changed (see `InPlaceCoderAdapter`).
 */
export type CoderV1Kind = 'engine-managed' | 'in-place';

/**
 * The coder contract, version 1: what snodo's core needs from any coder.
 *
 * It is a structural type, not a class. Core checks `specificationVersion` and never uses `instanceof`, so an
 * adapter built without the SDK's base classes, or against another copy of the SDK, works the same. A future
 * `coder-v2` will sit beside this file; core will keep accepting `coder-v1`.
 *
 * Who calls it: `@snodo/core` through its coder registry (`snodo run --coder <id>`), and
 * `@snodo/conformance`, which holds every adapter to the same named obligations.
 */
export interface CoderAdapterV1 {
  /** The contract version tag. Core refuses any other value with a clear error. */
  readonly specificationVersion: 'coder-v1';

  /**
   * The coder's id: kebab case, unique in a registry, the name users type after `--coder`
   * (`claude-code`, `opencode-cli`, `mock`).
   */
  readonly id: string;

  /**
   * The human name used in every message about this coder ("Claude Code", "Antigravity"). No coder name is
   * hard-coded anywhere else in snodo: messages interpolate this field.
   */
  readonly displayName: string;

  /** Whether snodo writes and commits the change (`engine-managed`) or the coder does (`in-place`). */
  readonly kind: CoderV1Kind;

  /**
   * The model namespace that routes to this coder, with its trailing slash (`agy/`, `claude-code/`), or
   * `undefined` when no model string should select it. `snodo run -m agy/gemini-2.5-pro` selects `agy`
   * and hands it `gemini-2.5-pro`; core matches the longest registered prefix first.
   */
  readonly modelPrefix: string | undefined;

  /**
   * One line telling a user how to install what this coder needs (`npm install -g @openai/codex`). Shown by
   * `snodo coders`, `snodo doctor` and in `CODER_NOT_INSTALLED` errors.
   */
  readonly installHint: string;

  /** Which credentials this coder needs and where snodo looks for them. */
  readonly credentials: CoderV1Credentials;

  /** The coder can report token usage (and possibly cost) for a run. */
  readonly supportsUsage?: boolean;
  /** The coder stops promptly when the request's `abortSignal` fires. */
  readonly supportsAbort?: boolean;
  /**
   * The coder can continue an earlier session. Declared for the future: snodo does not read it yet (each
   * fix attempt is a fresh run given the findings), so setting it changes nothing today.
   */
  readonly supportsResume?: boolean;
  /** The coder emits progress events through `request.emit` while it runs. */
  readonly supportsStreamingEvents?: boolean;
  /**
   * Every process this coder starts on this machine runs inside `request.sandbox` when one is given (or the
   * coder runs nothing here: a remote server, a container of its own). Core refuses to run an in-place coder
   * without it under `execution.sandbox: required`, and records `sandbox: none` for it under `auto`.
   */
  readonly supportsSandbox?: boolean;

  /**
   * Is this coder ready to run here? Installed, which version, credentials present. Never throws for an
   * expected "not ready" state: it returns `ready: false` with the reason and the command that fixes it.
   * Core calls it before creating any worktree, so a missing binary or key fails fast and leaves nothing
   * behind. It must have no side effects.
   */
  checkAvailability(options: CoderV1AvailabilityOptions): Promise<CoderV1Availability>;

  /**
   * Carry out one attempt of the task in `request.workspace`.
   *
   * The `do` prefix marks it as an adapter entry point that end users do not call directly; core calls it
   * once per attempt (the first run and each fix-loop round). It rejects with a typed `SnodoError`
   * (`CODER_NOT_INSTALLED`, `CODER_CREDENTIALS_MISSING`, `CODER_TIMEOUT`, `CODER_ABORTED`, `CODER_FAILED`,
   * `SNODO_MUTATION_BLOCKED`, `GIT_METADATA_TAMPERED`, `CODER_CLI_VERSION_UNSUPPORTED`) and never reports a
   * failure as success.
   */
  doRun(request: CoderV1Request): Promise<CoderV1Result>;
}
