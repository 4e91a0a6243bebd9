// What travels through the queues: plain JSON, so any machine (and BullMQ's PostgreSQL backend) can carry it.

import type { JobStatus, RemoteLandingResult } from '@snodo/core';

/** The queue `snodo submit` adds to and `snodo worker` takes tasks from. */
export const TASK_QUEUE = 'snodo-tasks';
/** The queue of landings on the shared remote: global concurrency 1, so landers seldom race. */
export const LANDING_QUEUE = 'snodo-landings';
/** The custom queue event that asks the worker running a job to abort it (`snodo job cancel`). */
export const CANCEL_EVENT = 'snodo-cancel';

/** The run options a submission carries to the worker (the flags of `snodo run` that make sense remotely). */
export interface SubmittedRunOptions {
  readonly coder?: string;
  readonly model?: string;
  readonly coderModel?: string;
  readonly mode?: string;
  readonly timeoutSeconds?: number;
  readonly mock?: boolean;
  /** The job's budget (`--max-cost` / `--max-tokens`): reaching it stops the coder and escalates. */
  readonly maxCostUsd?: number;
  readonly maxTokens?: number;
}

/** A human decision on an escalated queue job, recorded in the job's data (the shared state). */
export interface QueuedJobDecision {
  readonly decision: 'approve' | 'reject';
  readonly by: string;
  readonly at: string;
  readonly reason?: string;
}

/** A task job's data: what `snodo submit` enqueued, plus what humans decided about it later. */
export interface TaskJobData {
  readonly task: string;
  /** The base branch on the shared remote, e.g. `main`. */
  readonly base: string;
  /** The base's commit on the remote when the task was submitted: the run starts there. */
  readonly baseCommit: string;
  /** The commit the protocol was read from (the base commit) and its blob id, so a worker runs the same rules. */
  readonly protocolCommit: string;
  readonly protocolBlob: string;
  readonly options: SubmittedRunOptions;
  readonly submittedBy: string;
  readonly submittedAt: string;
  readonly decision?: QueuedJobDecision;
  /**
   * Set by `snodo job cancel`: a worker that takes the job later does not start it. On a job that ended
   * `landing` (or approved): its landing was asked not to happen; once its landing job is gone from the
   * landing queue, the job reads as cancelled.
   */
  readonly cancelRequested?: { readonly by: string; readonly at: string };
}

/** How a task job ended on its worker: its return value, the shared state `snodo task approve` reads. */
export interface TaskJobResult {
  /**
   * `landing`: the task branch was pushed and its landing enqueued; `escalated`: pushed (when there is a
   * commit) and waiting for a human; the rest are the run's own status (`halted`, `failed`, `cancelled`,
   * `done` for a run with no changes).
   */
  readonly status: 'landing' | 'escalated' | JobStatus;
  readonly outcome: string;
  readonly summary: string;
  readonly workerId: string;
  /** The job id in the worker's clone (`snodo task show <id>` there). */
  readonly localJobId: string;
  readonly taskCommit?: string;
  readonly taskBase: string;
  /**
   * The run stopped at its budget: its task commit is the coder's unfinished work, which the post-execute
   * gates never judged, so it is not landed on approval (a worker cannot continue it under a raised cap yet).
   */
  readonly stoppedAtBudget?: true;
  /** The protocol mode the run chose: the lander re-runs its deterministic gates when the base moved. */
  readonly mode?: string;
  /** A `failed` run's error code (`MODEL_REQUIRED`, `CODER_FAILED`…): `snodo job wait` exits by it. */
  readonly error?: { readonly code: string };
}

/** A landing job's data: enough for any worker's clone to land the task on the remote. */
export interface LandingJobData {
  readonly jobId: string;
  readonly base: string;
  readonly taskCommit: string;
  readonly taskBase: string;
  /** Who approved an escalated job, when a human did. */
  readonly approvedBy?: string;
  /**
   * The mode the task ran in, and its text: when the base moved, the lander re-runs that mode's
   * deterministic gates on the merged result. Absent (a landing enqueued by an older worker): only "the
   * change still applies" is checked.
   */
  readonly mode?: string;
  readonly task?: string;
  /**
   * Set by `snodo job cancel` before it removes the waiting job, or on the job a lander holds: the lander
   * re-reads it right before its push and drops the job from the train; taking it later lands nothing.
   */
  readonly cancelRequested?: { readonly by: string; readonly at: string };
  /**
   * Set by a lander that landed (or kept) this job in its merge train while the job waited: taking the job
   * then returns this instead of landing it again.
   */
  readonly landedInTrain?: {
    readonly trainId: string | undefined;
    readonly workerId: string;
    readonly result: RemoteLandingResult;
  };
}

/** The landing job's id: one landing per task job, however often it is enqueued. */
export function landingJobId(jobId: string): string {
  return `land-${jobId}`;
}
