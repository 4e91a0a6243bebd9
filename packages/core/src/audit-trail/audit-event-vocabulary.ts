// The vocabulary of the audit log: every event type core appends, with the shape of its data. A new event,
// or a renamed field, is a change here first; the type checker then finds every place that writes it.
// Field names are snake_case: they are the log's on-disk format, read by `snodo audit show` and by auditors.

type Maybe<T> = T | undefined;
type Data = Readonly<Record<string, unknown>>;
type Usage = Data | null;
/** One deterministic gate's verdict in a lander's re-check (`remote-landing-*` events). */
type RecheckGateRecord = {
  readonly gate_id: string;
  readonly kind: 'constraint' | 'command';
  readonly severity: 'pass' | 'warn' | 'blocker';
  readonly error: boolean;
};

/** A landing's place in a lander's merge train: its id, the car's position (from 1) and the cars in it. */
type LandingTrainRecord = { readonly id: string; readonly position: number; readonly size: number };

/** What a landing recorded (`merge-end` when the change landed or the branch was kept, else `job-retain`). */
type LandingData = {
  readonly strategy: string;
  readonly base_ref: string;
  readonly foreign_commits: Maybe<readonly string[]>;
  readonly outcome: string;
  readonly merge_commit: Maybe<string>;
  readonly previous_base_commit: Maybe<string>;
  readonly fast_forward: Maybe<boolean>;
  readonly conflicted_files: Maybe<readonly string[]>;
  readonly overlapping_paths: Maybe<readonly string[]>;
};

/** Every event type core appends to a repository's audit log, and its data. */
export interface AuditEventDataByType {
  /** A job was created: the task (secrets masked), who asked, the protocol it runs under, the request. */
  'job-start': {
    readonly task: string;
    readonly actor: string;
    readonly protocol_id: string;
    readonly protocol_sha256: string;
    readonly options: Data;
  };
  /** The mode and flow type chosen, each with its source (SPEC §2 step 3). */
  'task-classify': {
    readonly mode: string;
    readonly mode_source: string;
    readonly flow_type: string;
    readonly flow_type_source: string;
    readonly reason: Maybe<string>;
  };
  /** The coder and the model of every role, with their sources (SPEC §4.3, §4.4). */
  'coder-resolve': {
    readonly coder: string;
    readonly source: string;
    readonly kind: string;
    readonly version: Maybe<string>;
    readonly credentials: string;
    readonly models: { readonly judging: Data; readonly classifier: Data; readonly coder: Data };
  };
  /** The job's workspace and sandbox (or `none` with the reason). */
  'workspace-create': {
    readonly isolated: boolean;
    readonly worktree: string;
    readonly branch: string;
    readonly base_ref: string;
    readonly base_commit: string;
    readonly base_source: string;
    readonly sandbox: string;
    readonly sandbox_reason: Maybe<string>;
    readonly sandbox_gate_network: Maybe<boolean>;
  };
  /**
   * The job's workspace was prepared (`execution.setup`, `copy_into_workspace`) before the coder ran: what
   * ran and why (`source`: `execution.setup`, `lockfile package-lock.json`), how it ended, and the paths it
   * left untracked that snodo keeps out of the task's commits.
   */
  'workspace-setup': {
    readonly command: string | null;
    readonly source: string;
    readonly outcome: 'passed' | 'failed' | 'timed-out' | 'not-started' | 'changed-tracked-files' | 'skipped';
    readonly exit_code: number | null;
    readonly duration_ms: number;
    readonly output_tail: string;
    readonly copied: readonly string[];
    readonly excluded: readonly string[];
  };
  /** A kept workspace's branch was imported before a human action continued the job. */
  'workspace-import': {
    readonly branch: string;
    readonly commit: string;
    readonly previous_commit: string | null;
  };
  /** One coder attempt starts. */
  'coder-start': {
    readonly attempt: number;
    readonly coder: string;
    readonly kind: string;
    readonly model: Maybe<string>;
    readonly timeout_seconds: number;
    readonly prompt_sha256: string;
    readonly base_commit: string;
  };
  /** One coder attempt ended and passed core's re-checks. */
  'coder-end': {
    readonly attempt: number;
    readonly status: 'changed' | 'no-changes';
    readonly commit: Maybe<string>;
    readonly files: readonly string[];
    readonly diff_sha256: Maybe<string>;
    readonly cli_version: Maybe<string>;
    readonly argv: Maybe<readonly string[]>;
    readonly exit_code: Maybe<number>;
    readonly duration_ms: number;
    readonly usage: Usage;
  };
  /** One gate's verdict. */
  'gate-verdict': {
    readonly phase: string;
    readonly attempt: number;
    readonly gate_id: string;
    readonly gate_type: string;
    readonly kind: string;
    readonly severity: string;
    readonly error: boolean;
    readonly original_severity: Maybe<string>;
    readonly justification: string;
    readonly findings: readonly Data[];
    readonly model: Maybe<string>;
    readonly duration_ms: number;
    readonly usage: Usage;
    /** A judge with `tools:`: each call it made (tool, input, ok, error, bytes), so the log shows what it read. */
    readonly tool_calls: Maybe<readonly Data[]>;
  };
  /** The disagreement policy's decision over one phase's verdicts. */
  'policy-decide': {
    readonly phase: string;
    readonly attempt: number;
    readonly policy: string;
    readonly action: string;
    readonly halt_reason: Maybe<string>;
    readonly counts: Data;
    readonly constraint_counts: Data;
    readonly justification: string;
  };
  /** The coder is asked again, with the findings of the attempt before. */
  'fix-request': { readonly attempt: number; readonly findings: readonly Data[] };
  /** Landing starts. */
  'merge-start': {
    readonly strategy: string;
    readonly base_ref: string;
    readonly base_commit: string;
    readonly branch: string;
  };
  /** The change landed (or, under `none`, the branch was kept); `in-place` for `--no-isolation`. */
  'merge-end':
    | LandingData
    | { readonly strategy: 'in-place'; readonly outcome: 'merged'; readonly branch: string };
  /** The change did not land and the branch is kept: a conflict, a moved base, a refusal. */
  'job-retain': LandingData;
  /** The repository guard found tampering outside the workspace. */
  'repository-tamper': { readonly during: string; readonly findings: readonly Data[] };
  /** The job ended. */
  'job-end': {
    readonly status: string;
    readonly outcome: string;
    readonly error_code: Maybe<string>;
    readonly duration_ms: number;
    readonly attempts: number;
    readonly merge_commit: Maybe<string>;
    readonly kept: boolean;
  };
  /** A human approved an escalated job (`snodo task approve`). */
  'job-approve': {
    readonly by: string;
    readonly at: string;
    readonly reason: Maybe<string>;
    readonly outcome: string;
  };
  /**
   * The job's spend reached a cap (SPEC §15): which one, its limit, the spend so far (total and per role, cost
   * in micro-dollars) and where the job was; the job escalates with its work kept. Limits are tokens, or
   * micro-dollars for `cost` (the log holds integers only).
   */
  'budget-exceed': {
    readonly cap: 'cost' | 'tokens';
    readonly limit: number;
    readonly phase: string;
    readonly spent_tokens: number;
    readonly spent_cost_micro_usd: number | null;
    readonly roles: Data;
  };
  /** A human raised a cap to continue a job stopped at it (`snodo task approve --budget`); units as above. */
  'budget-raise': {
    readonly by: string;
    readonly at: string;
    readonly cap: 'cost' | 'tokens';
    readonly old: number | null;
    readonly new: number;
    readonly spent_tokens: number;
    readonly spent_cost_micro_usd: number | null;
  };
  /** A human merged a kept branch (`snodo task merge`). */
  'job-merge': { readonly by: string; readonly at: string; readonly previous_outcome: Maybe<string> };
  /** A human rejected a halted job (`snodo task reject`). */
  'job-reject': {
    readonly by: string;
    readonly at: string;
    readonly reason: string;
    readonly outcome: Maybe<string>;
  };
  /** A human abandoned a job and its workspace (`snodo task abandon`). */
  'job-abandon': {
    readonly by: string;
    readonly at: string;
    readonly worktree_removed: boolean;
    readonly branch_deleted: boolean;
  };
  /** A human asked a running job to stop (`snodo job cancel`); the job's own `job-end` follows. */
  'job-cancel': {
    readonly by: string;
    readonly at: string;
    readonly reason: Maybe<string>;
    readonly pid: number;
  };
  /** A landing interrupted by a crash was finished or rolled back at the next start. */
  'landing-recover': {
    readonly action: string;
    readonly base_ref: string;
    readonly previous_base_commit: string;
    readonly merge_commit: string;
    readonly updated_checkouts: readonly string[];
  };
  /** A job left `running` by a process that is gone was marked `interrupted`. */
  'job-interrupt': { readonly pid: number; readonly previous_status: 'running' };
  /**
   * A lander is about to push a landing to the shared remote (issue 16): the landing commit's `Snodo-Audit`
   * trailer names this event, and this event names what that commit is made of (its tree and parents), so
   * `snodo audit verify --remote` can tell the commit it anchors. One per push attempt.
   */
  'remote-landing-start': {
    readonly worker: string;
    readonly remote: string;
    readonly base_ref: string;
    readonly base_commit: string;
    readonly task_commit: string;
    readonly task_base: string;
    readonly tree: string;
    readonly parents: readonly string[];
    readonly attempt: number;
    readonly recheck: 'not-needed' | 'passed' | 'not-given';
    /** The re-check's gate verdicts when it ran (the deterministic gates on the candidate). */
    readonly recheck_gates?: Maybe<readonly RecheckGateRecord[]>;
    /** The merge train the landing went in (several landings, one fetch, one re-check, one push). */
    readonly train?: Maybe<LandingTrainRecord>;
  };
  /**
   * How one landing attempt on the shared remote ended: `landed`, `rejected` (another lander moved a ref
   * first; the lander fetches and tries again) or `kept` (nothing moved; `reason` says why).
   */
  'remote-landing-end': {
    readonly worker: string;
    readonly remote: string;
    readonly base_ref: string;
    readonly attempt: number;
    readonly outcome: 'landed' | 'rejected' | 'kept';
    readonly commit: Maybe<string>;
    readonly reason: Maybe<string>;
    readonly conflicted_files: Maybe<readonly string[]>;
    /** A failed re-check's gate verdicts: which gate kept the job. */
    readonly recheck_gates?: Maybe<readonly RecheckGateRecord[]>;
    readonly train?: Maybe<LandingTrainRecord>;
  };
  /**
   * A host agent called a tool of `snodo serve` (the MCP server): which tool, the client's name and version
   * from its `initialize`, the session and transport, how the call ended (`refused`: snodo said no, naming
   * why), and the job it started or acted on.
   */
  'mcp-tool-call': {
    readonly tool: string;
    readonly client_name: string;
    readonly client_version: string;
    readonly session: string;
    readonly transport: 'stdio' | 'http' | 'memory';
    readonly outcome: 'ok' | 'error' | 'refused';
    readonly job_id: Maybe<string>;
    readonly error_code: Maybe<string>;
    readonly reason: Maybe<string>;
  };
  /**
   * A human decided an escalated job of the shared queue (`snodo task approve|reject <job>` on any machine,
   * issue 16): the queue job, the decision, who and why, the worker that ran it and the task commit an
   * approval lands. The job itself ran in that worker's clone; this records the decision where it was made.
   */
  'queue-job-decide': {
    readonly decision: 'approve' | 'reject';
    readonly by: string;
    readonly at: string;
    readonly reason: Maybe<string>;
    readonly worker: string;
    readonly task_commit: Maybe<string>;
  };
}

/** The type of an event core appends (`job-start`, `gate-verdict`, `repository-tamper`…). */
export type AuditEventType = keyof AuditEventDataByType;

/** The data of one event type. */
export type AuditEventData<T extends AuditEventType> = AuditEventDataByType[T];

/** One event core appends: its type and its data, as one union. */
export type SnodoAuditEvent = {
  [T in AuditEventType]: { readonly type: T; readonly data: AuditEventData<T> };
}[AuditEventType];
