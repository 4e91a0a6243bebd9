import type { CoderV1Event } from './coder-v1-event.js';
import type { CoderV1Sandbox } from './coder-v1-sandbox.js';

/**
 * Everything one coder attempt gets from core. Built per attempt: the fix loop sends a new request with
 * the gate findings folded into `prompt` and `attempt` increased.
 */
export interface CoderV1Request {
  /** The job id (`j_…`). Adapters put it in commit trailers and transcript headers. */
  readonly jobId: string;

  /** Which attempt this is: 1 for the first run, 2… for fix-loop rounds. */
  readonly attempt: number;

  /** The task exactly as the user gave it. Adapters use its first line in the commit subject. */
  readonly task: string;

  /**
   * The full prompt built by snodo's shared prompt builder: task, mode instructions, constraints, scope and,
   * on fix rounds, the findings to address. CLI adapters pass it as one argv element.
   */
  readonly prompt: string;

  /** Absolute path of the task worktree. The coder's working directory; it must not write outside it. */
  readonly workspace: string;

  /**
   * The coder's model, with any namespace prefix already stripped (`gemini-2.5-pro`, not
   * `agy/gemini-2.5-pro`). `undefined` means "use the CLI's own default": adapters then add no model flag.
   */
  readonly model: string | undefined;

  /**
   * The environment to run with: an allow-list of ordinary variables (PATH, HOME, LANG, proxies…) plus only
   * this coder's credentials. Adapters add their own hermetic settings to it, never inherited secrets.
   */
  readonly env: Readonly<Record<string, string>>;

  /** Wall-clock limit for the attempt, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * Idle limit in milliseconds: no output on stdout or stderr for this long counts as a hang. `undefined`
   * lets the adapter pick its default.
   */
  readonly idleTimeoutMs?: number;

  /** Fires when the user cancels (Ctrl-C) or the embedder aborts `runTask`. The coder must stop promptly. */
  readonly abortSignal: AbortSignal;

  /**
   * The snodo-owned instructions text for this run (mode instructions, constraints, scope). In-place
   * adapters place it where their CLI reads instructions, excluded from git.
   */
  readonly instructions: string;

  /** Absolute path where core stored the same instructions, under `.snodo/jobs/<id>/`. */
  readonly instructionsPath: string;

  /**
   * Absolute path of this job's transcript file (`.snodo/jobs/<id>/transcript.log`). Adapters append the
   * coder's output there, capped in size, and return the path in the result.
   */
  readonly transcriptPath: string;

  /**
   * A private home directory for this job. CLI adapters point HOME and their config directories at it so a
   * user's own CLI settings do not leak into the run. Inside a sandbox it is the only HOME there is (the
   * user's own is hidden). Core always sets it; it is optional only for requests built by older callers.
   */
  readonly homeDirectory?: string;

  /**
   * A directory for this job's coder state: a CLI's private config home (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`,
   * XDG directories), its session logs, temporary files it must keep. Writable inside the sandbox and kept
   * with the job for inspection (`.snodo/jobs/<id>/coder/`). Adapters must put such files here, never in
   * `os.tmpdir()` (the sandbox has its own private `/tmp`) and never in the workspace. Absent (older
   * callers): use a directory next to `transcriptPath`; `coderStateDirectory(request)` does that.
   */
  readonly stateDirectory?: string;

  /**
   * The sandbox this attempt runs in, when core sandboxes it (SPEC §12). Every process the adapter starts
   * for the attempt must run inside it: pass it as `sandbox` to `runSupervisedProcess` /
   * `startSupervisedProcess` (the SDK's base classes do). An adapter that declares `supportsSandbox` and
   * starts a process outside it breaks containment; conformance checks this. Absent: run unsandboxed.
   */
  readonly sandbox?: CoderV1Sandbox;

  /**
   * Coder-specific settings: the protocol mode's `coder_config` merged over config `coders.<id>`. Adapters
   * validate what they read from it.
   */
  readonly coderConfig: Readonly<Record<string, unknown>>;

  /** Reports progress (output lines, usage so far) to core's event stream while the coder runs. */
  readonly emit: (event: CoderV1Event) => void;
}
