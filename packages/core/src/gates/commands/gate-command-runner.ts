import type { CoderV1Sandbox } from '@snodo/coder-sdk';

/** What a command gate asks its runner to run. */
export interface GateCommandRequest {
  /** `shell`: a string run through `sh -c`; `argv`: run directly, no shell. */
  readonly command: { readonly shell: string } | { readonly argv: readonly string[] };
  /** Working directory: the task worktree. */
  readonly cwd: string;
  /** The complete environment of the command (the caller decides what it holds). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Wall-clock limit; the whole process group is killed when it passes. */
  readonly timeoutMs: number;
  /** Cancels the run: the process group is killed and the result says `aborted`. */
  readonly signal?: AbortSignal;
  /**
   * The job's sandbox (the same one its coder ran in; `network` from `execution.sandbox_network`). A gate
   * runs code the coder wrote (`npm test`), so it gets no more reach than the coder. Absent: the command
   * runs unsandboxed (`execution.sandbox: off`, or no sandbox on this machine under `auto`).
   */
  readonly sandbox?: CoderV1Sandbox;
}

/** How a command run ended. */
export interface GateCommandResult {
  /** `exited` (any exit code or signal), `timed-out`, `spawn-failed` (never started) or `aborted`. */
  readonly outcome: 'exited' | 'timed-out' | 'spawn-failed' | 'aborted';
  /** The exit code, or `null` when killed by a signal or never started. */
  readonly exitCode: number | null;
  /** The signal that ended it, if any. */
  readonly signal: string | null;
  /** The tail of stdout and stderr interleaved, capped (the head is dropped first). */
  readonly output: string;
  /** `true` when earlier output was dropped to respect the cap. */
  readonly outputTruncated: boolean;
  /** Why the command could not start (`spawn-failed`), e.g. `command not found: pytest`. */
  readonly spawnError?: string;
}

/**
 * Runs one command gate's command. The default is `runGateCommand` (the SDK's supervisor: a detached process
 * group killed as a whole, inside `request.sandbox`); tests and embedders (a container, a remote runner) may
 * inject their own, and must honour `sandbox` themselves.
 */
export type GateCommandRunner = (request: GateCommandRequest) => Promise<GateCommandResult>;
