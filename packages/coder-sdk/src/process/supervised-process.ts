import type { CoderV1Sandbox } from '../v1/coder-v1-sandbox.js';

/** Why the supervisor stopped a process. */
export type SupervisedStopReason =
  /** The wall-clock limit passed. */
  | 'wall-clock'
  /** No byte on stdout or stderr for the idle limit. */
  | 'idle'
  /** The abort signal fired. */
  | 'abort'
  /** The CLI printed its final event and did not exit within the grace; its work was done. */
  | 'final-event'
  /** The caller asked (`SupervisedProcess.stop()`): a server at the end of its attempt. */
  | 'requested';

/** How to run and watch one process: a coder CLI, a command gate, a server. */
export interface SupervisedProcessOptions {
  /** The executable (absolute path). */
  readonly file: string;
  /** Its arguments, without the program name. Never a shell string: there is no shell. */
  readonly args: readonly string[];
  /** The working directory (the worktree). The same path inside the sandbox. */
  readonly cwd: string;
  /** The complete environment; nothing is inherited. The supervisor adds `SNODO_PROCESS_TAG`. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The sandbox to run in (`CoderV1Request.sandbox`). Absent: the process runs on the host with the
   * caller's powers, which is what `execution.sandbox: off` means.
   */
  readonly sandbox?: CoderV1Sandbox;
  /** Wall-clock limit in milliseconds. Absent: none (a server the caller stops itself). */
  readonly timeoutMs?: number;
  /** Limit on silence (no byte on stdout or stderr) in milliseconds. Absent: none. */
  readonly idleTimeoutMs?: number;
  /** Time between SIGTERM and SIGKILL to the process group. Default `DEFAULT_KILL_GRACE_MS` (5000 ms). */
  readonly killGraceMs?: number;
  /** Cancels the run: the group is stopped the same way as on a timeout. */
  readonly abortSignal?: AbortSignal;
  /** Receives every chunk of output as it arrives; nothing is buffered by the supervisor. */
  readonly onOutput: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  /**
   * Told the pid of the started process (it leads its own process group; sandboxed, it is bubblewrap) and
   * its tag, so a caller can record both and clean up after a crash of snodo itself.
   */
  readonly onStart?: (pid: number, tag: string) => void;
  /**
   * Recognises the CLI's last event on stdout (a JSON `result` line). Once it is printed the CLI has
   * finished its work; if it has not exited `finalEventGraceMs` later, its group is stopped and the run
   * counts as ended normally (`stoppedBy: 'final-event'`).
   */
  readonly isFinalLine?: (line: string) => boolean;
  /** How long a CLI may keep running after its final event. Default `DEFAULT_FINAL_EVENT_GRACE_MS` (3000 ms). */
  readonly finalEventGraceMs?: number;
}

/** How a supervised process ended. */
export interface SupervisedProcessOutcome {
  /** The exit code, when it exited on its own or after a handled signal. */
  readonly exitCode: number | undefined;
  /** The signal that ended it, when one did. */
  readonly signal: string | undefined;
  /** Which limit (or caller) made the supervisor stop it, if any. */
  readonly stoppedBy: SupervisedStopReason | undefined;
  /**
   * Set when the process could not start at all (`ENOENT`, `EACCES`). `file` is what could not start:
   * the command, or bubblewrap when sandboxed.
   */
  readonly spawnError:
    | { readonly code: string | undefined; readonly message: string; readonly file: string }
    | undefined;
  /**
   * Sandboxed only: bubblewrap's own error when it failed before or while starting the command (exit 1
   * with `bwrap: …` first on stderr), e.g. `bwrap: execvp claude: No such file or directory` for a CLI the
   * sandbox hides.
   */
  readonly sandboxFailure: string | undefined;
  /**
   * Processes that outlived the group (a `setsid` grandchild) and carried this process's tag, killed after
   * the leader exited.
   */
  readonly orphansKilled: number;
}

/** A process the supervisor started; see `startSupervisedProcess`. */
export interface SupervisedProcess {
  /** The pid of the group leader, or `undefined` when it could not start (`exited` says why). */
  readonly pid: number | undefined;
  /** The random tag in its environment (`SNODO_PROCESS_TAG`); `killTaggedProcesses(tag)` finds its orphans. */
  readonly tag: string;
  /** Resolves once the process exited, its group was killed, its orphans swept and its pipes drained. */
  readonly exited: Promise<SupervisedProcessOutcome>;
  /**
   * SIGTERM to the group, SIGKILL after the grace; resolves like `exited`. Stopping a process that already
   * ended (or is being stopped) changes nothing.
   */
  stop(reason?: SupervisedStopReason): Promise<SupervisedProcessOutcome>;
}
