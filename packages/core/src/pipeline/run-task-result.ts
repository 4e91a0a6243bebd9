import type { JobState, JobStatus, RoleUsage, VerdictRecord } from '../jobs/index.js';

/**
 * How a run ended. Outcomes:
 * - `done`: `merged`, `branch_kept` (merge strategy `none`), `no_changes`;
 * - `halted` (governance; exit 1): `blocker`, `escalated`, `validator_error`, `merge_conflict`,
 *   `merge_deferred`, `not_fast_forward`, `snodo_mutation_blocked`, `git_metadata_tampered`,
 *   `proposal_refused`;
 * - `failed` (coder or environment; exit 3, or 2 for bad input): `coder_failed` and friends, with `error`;
 * - `cancelled` (exit 130).
 */
export interface RunTaskResult {
  readonly jobId: string;
  readonly status: JobStatus;
  readonly outcome: string;
  /** One or two sentences: what happened and what to do next. */
  readonly summary: string;
  /** Commands that inspect, finish or discard a kept job. Empty when nothing is kept. */
  readonly nextSteps: readonly string[];
  readonly task: string;
  readonly mode?: string;
  readonly coder?: { readonly id: string; readonly displayName: string; readonly version?: string };
  readonly models?: {
    readonly judging?: string;
    readonly classifier?: string;
    readonly coder?: string;
  };
  readonly branch?: string;
  readonly worktreePath?: string;
  readonly baseRef?: string;
  readonly baseCommit?: string;
  readonly mergeCommit?: string;
  readonly conflictedFiles?: readonly string[];
  readonly changedFiles: readonly string[];
  readonly attempts: number;
  readonly verdicts: readonly VerdictRecord[];
  readonly usage: Readonly<Record<string, RoleUsage>>;
  /** The job's caps and, when it stopped at one, the spend then (`state.json`'s `budget`). */
  readonly budget?: JobState['budget'];
  readonly durationMs: number;
  /** The error behind a `failed` or `halted` outcome, when there was one. */
  readonly error?: { readonly code: string; readonly message: string };
  /** The signed audit checkpoint written at the job's end, as a trailer line. */
  readonly checkpoint?: string;
}
