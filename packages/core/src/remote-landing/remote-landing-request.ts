// The contract between a landing queue and the lander: plain data both ways, so a queue (BullMQ) can carry
// the request to whichever worker lands next and store the result as the job's return value.

/** One gate's verdict in a re-check, recorded in the lander's `remote-landing-*` events (`recheck_gates`). */
export interface RecheckGateRecord {
  readonly gate_id: string;
  readonly kind: 'constraint' | 'command';
  readonly severity: 'pass' | 'warn' | 'blocker';
  readonly error: boolean;
}

/** What one worker asks of the lander: land this task commit on the shared remote's base branch. */
export interface RemoteLandingRequest {
  /** The lander's own clone of the shared remote (a worker's checkout); its audit log is the lander's chain. */
  readonly clone: string;
  /** The remote's name in that clone, e.g. `origin` (a configured remote, never a URL). */
  readonly remote: string;
  /** The base branch on the remote, e.g. `main` (a short name or `refs/heads/<name>`). */
  readonly base: string;
  /** The task's result commit; the worker pushed it to `refs/snodo/jobs/<jobId>` on the remote. */
  readonly taskCommit: string;
  /** The base commit the task started from: when the remote base still points there, nothing is re-checked. */
  readonly taskBase: string;
  /** The snodo job, named in the landing commit's `Snodo-Job` trailer and in the audit events. */
  readonly jobId: string;
  /** The lander's worker id: names its chain ref `refs/snodo/audit/<workerId>` and its registered key. */
  readonly workerId: string;
  /** How many pushes to try when the remote refuses one because a ref moved meanwhile. Default 5. */
  readonly maxAttempts?: number;
  /**
   * Re-runs the deterministic (command) gates on the candidate when the base moved since the task ran:
   * `commit` is the merged result, `base` the remote base it sits on. Absent: only "still applies" (a
   * conflict-free merge) is checked. `recheckCommandGates` is core's; `gates`, when returned, is audited.
   */
  readonly recheck?: (candidate: {
    commit: string;
    base: string;
  }) => Promise<
    ({ ok: true } | { ok: false; reason: string }) & { readonly gates?: readonly RecheckGateRecord[] }
  >;
  /** Stops the landing before its next push; a push already made stands. */
  readonly signal?: AbortSignal;
  /**
   * The lander's `$SNODO_HOME`: its signing key signs the chain snapshot, its checkpoint store keeps a copy.
   * Given, not read from the environment: core never reads `process.env`, and a worker knows its own.
   */
  readonly snodoHome: string;
}

/**
 * How a landing ended. `landed`: the base on the remote is at `commit` (a merge commit carrying the
 * `Snodo-Audit` trailer); `rejectedPushes` counts the pushes the remote refused because another lander
 * won the race. `alreadyLanded`: an earlier try of the same job had landed it (a retried queue job).
 * `kept`: nothing moved on the remote; `reason` says why in words (a conflict, a failed re-check, a
 * base that kept moving, a push git refused).
 */
export type RemoteLandingResult =
  | {
      readonly status: 'landed';
      readonly commit: string;
      readonly attempts: number;
      readonly rejectedPushes: number;
      readonly alreadyLanded?: boolean;
    }
  | {
      readonly status: 'kept';
      readonly reason: string;
      readonly attempts: number;
      /** `merge_conflict`: the paths that conflict with the moved base. */
      readonly conflictedFiles?: readonly string[];
    };
