import type { CoderV1FileProposal } from './coder-v1-file-proposal.js';
import type { CoderV1Usage } from './coder-v1-usage.js';

/**
 * The outcome of one successful coder attempt. Failures are typed errors, never a result.
 *
 * Core audits it as `coder-end` (argv without secrets, CLI version, exit code, duration, files, commit).
 */
export interface CoderV1Result {
  /** `changed` when the attempt produced a change; `no-changes` when it did not (then no commit exists). */
  readonly status: 'changed' | 'no-changes';

  /** Engine-managed coders: the files to write or delete. Core checks and applies them, then commits. */
  readonly proposals?: readonly CoderV1FileProposal[];

  /**
   * In-place coders: the sha of the one commit made on the task branch for this attempt. Absent when
   * `status` is `no-changes`.
   */
  readonly commit?: string;

  /** Paths changed by this attempt, relative to the worktree, sorted. */
  readonly changedFiles: readonly string[];

  /** Usage of this attempt, or `null` when the coder reports none. */
  readonly usage: CoderV1Usage | null;

  /** Path of the transcript written for this attempt, when there is one. */
  readonly transcriptPath?: string;

  /** The CLI's version string, for coders that run a CLI. */
  readonly cliVersion?: string;

  /** The argv that ran, with secrets removed, for the audit log. */
  readonly argv?: readonly string[];

  /** The process exit code, for coders that run a process (`0` on success). */
  readonly exitCode?: number;

  /** How long the attempt took, in milliseconds. */
  readonly durationMs: number;

  /** The last part of the coder's stderr (a few KB), for messages and `state.json`. */
  readonly stderrTail?: string;

  /** The CLI's own session or conversation id, when it reports one (for resume and for the record). */
  readonly sessionId?: string;
}
