// @snodo/core's public API: the door (openProject → resolveSelection / planTask → runTask), the human
// actions on jobs, and the types their results carry. Everything else is internal; tests import it by path.

/** Every event type core appends, with its data: the audit log's vocabulary. */
export type {
  AuditEventData,
  AuditEventDataByType,
  AuditEventType,
  SnodoAuditEvent,
} from './audit-trail/audit-event-vocabulary.js';
/** Where the audit log and the signing key live. */
export { auditLogPath, signingKeyDirectory } from './audit-trail/audit-paths.js';
// ── Audit ─────────────────────────────────────────────────────────────────────────────────────────────
/** A repository's audit log as the pipeline uses it: append, checkpoint, verify. */
export { AuditTrail } from './audit-trail/audit-trail.js';
/** A job's spending caps and what it spent against them (SPEC §15), for `snodo meta` and `task show`. */
export {
  type BudgetCrossing,
  describeCrossing,
  formatUsd,
  type JobBudget,
  type JobSpend,
  jobSpend,
} from './budget/index.js';
/** Whether one registered coder can run here, checked as a run checks it. */
export { type CoderStatus, checkCoder } from './coders/check-coder.js';
// ── Coders, config, protocol ──────────────────────────────────────────────────────────────────────────
/** A coder an application registers, and the registry `openProject` builds from them and from config. */
export type { CoderRegistration } from './coders/coder-registration.js';
export type { CoderRegistry } from './coders/coder-registry.js';
/** Every key `snodo config set` accepts, record names as placeholders (`providers.<provider>.api_key`). */
export { listConfigKeys } from './config/config-keys.js';
export type { SnodoConfig } from './config/config-schema.js';
/** The user's config file (`$SNODO_HOME/config.yml`): read, set, unset, with secrets masked on show. */
export { ConfigStore } from './config/config-store.js';
/** Provider keys found in the environment, names only (for doctor and init). */
export { detectProviderKeys } from './config/detect-provider-keys.js';
// ── Errors and version ────────────────────────────────────────────────────────────────────────────────
/** Every error code core throws: `error.code` of a `SnodoError` from core is one of these. */
export type { CoreErrorCode } from './errors.js';
/** Predicate names constraints may use without registering them. */
export { BUILT_IN_PREDICATE_NAMES } from './gates/constraints/predicate-registry.js';
/** The branch checked out in a repository (or the detached commit). */
export { currentBranch } from './git/current-branch.js';
/** A task workspace made or removed outside a run (benchmarks, embedders managing workspaces). */
export { createTaskWorkspace } from './isolation/create-task-workspace.js';
/** How a finished task lands on its base branch (`merge`, `ff-only`, `squash`, `none`). */
export type { LandingStrategy } from './isolation/land-task-branch.js';
export { removeTaskWorkspace } from './isolation/remove-task-workspace.js';
/** Where a job's files are, and the directory of all jobs. */
export { jobPaths, jobsDirectory } from './jobs/job-paths.js';
// ── Jobs and the human actions on them ────────────────────────────────────────────────────────────────
/** A job's `state.json`, its status, and the schemas `--json` output is checked against. */
export {
  type JobState,
  type JobStatus,
  jobStateSchema,
  jobStatusSchema,
  roleUsageSchema,
  verdictRecordSchema,
} from './jobs/job-state.js';
/** Every job of a repository, and one job's state. */
export { listJobs, readJobState } from './jobs/job-store.js';
/** The key core would hand a coder and where it was found (config or environment), never shown in full. */
export {
  type CoderCredentialLookup,
  type CoderCredentialOrigin,
  lookUpCoderCredentials,
} from './pipeline/coder-credentials.js';
/** The typed events a run streams (`stage-start`, `gate-verdict`, `coder-output`, `usage`, `job-end`…). */
export type { RunEvent, RunStage } from './pipeline/run-event.js';
/** Runs one task through the governed pipeline: its events as they happen, its result at the end. */
export { type RunTaskHandle, runTask } from './pipeline/run-task.js';
/** What `runTask` is asked to do, and the coders an application makes available to it. */
export type { CoderCatalog, RunTaskOptions } from './pipeline/run-task-options.js';
/** How a run ended (`status`, `outcome`, the landing, usage). */
export type { RunTaskResult } from './pipeline/run-task-result.js';
/** Lists snodo's runtime files in `info/exclude` (a background run makes its job directory before the run). */
export { ensureRuntimeExclusions } from './pipeline/runtime-exclusions.js';
/** The models a run needs and nothing configures (`snodo coders`, `snodo doctor` say "not ready"). */
export { checkModels } from './project/check-models.js';
/** The mode a plan chose and why; a decision with its source. */
export type { ModeChoice } from './project/choose-mode.js';
export type { Sourced } from './project/coder-timeout.js';
/** A run needs a model nothing configures: refused before a job exists, with the quick-setup text. */
export { type ModelNeed, ModelRequiredError } from './project/model-required-error.js';
// ── The door ──────────────────────────────────────────────────────────────────────────────────────────
/** Opens the project snodo was started in, once: config, coder registry, protocol, repository, sandbox. */
export { findMainCheckout, type OpenProjectOptions, openProject } from './project/open-project.js';
/** Everything a run would do, computed by the run's own code; refuses bad input before any job exists. */
export { planTask } from './project/plan-task.js';
/** What `openProject` returns, and the protocol and repository as it found them. */
export type { Project, ProjectProtocol, ProjectRepository } from './project/project.js';
/** The coder and every model role, each with its source, in one call. */
export { resolveSelection, type Selection, type SelectionRequest } from './project/resolve-selection.js';
/** A task request, the decisions taken before a job exists, and the full plan `--dry-run` prints. */
export type { TaskDecisions, TaskPlan, TaskRequest } from './project/task-plan.js';
/** Whether a planned run would start, and why not. */
export type { ReadinessProblem, TaskReadiness } from './project/task-readiness.js';
/** Loads and checks a protocol file (`snodo protocol validate` names any file). */
export { loadProtocol } from './protocol/load-protocol.js';
/** A protocol that does not load: every problem with its file, line and column. */
export { ProtocolInvalidError } from './protocol/protocol-invalid-error.js';
export type { ProtocolMode } from './protocol/protocol-mode-schema.js';
/** The protocol and one of its modes, as parsed. */
export type { Protocol } from './protocol/protocol-schema.js';
/** The protocol `snodo init` writes, and the named templates. */
export { DEFAULT_PROTOCOL_TEMPLATE, renderProtocolTemplate } from './protocol/protocol-templates.js';
/** One problem found in a YAML source, and its one-line rendering. */
export { formatSourceIssue, type SourceIssue } from './protocol/source-issue.js';
/** What `snodo init` writes into a template: the detected test command and workspace setup. */
export type { TemplateCommands } from './protocol/template-commands.js';
// ── Many machines: landing on a shared remote ─────────────────────────────────────────────────────────
/** Lands a task commit on the shared remote's base with an atomic, leased push and the lander's chain. */
export {
  landOnRemote,
  type RecheckGateRecord,
  type RemoteLandingRequest,
  type RemoteLandingResult,
} from './remote-landing/land-on-remote.js';
/** Lands several waiting task commits together: one fetch, one re-check on the last tree, one push. */
export {
  type LandingCar,
  type LandingTrainRequest,
  type LandingTrainResult,
  landTrainOnRemote,
  type TrainCarResult,
} from './remote-landing/land-train-on-remote.js';
/** Re-runs the job's deterministic gates on a candidate landing when the shared base moved (no model calls). */
export {
  type RecheckCommandGatesOptions,
  type RecheckCommandGatesResult,
  recheckCommandGates,
} from './remote-landing/recheck-command-gates.js';
/** Registers a worker's public key on the shared remote (`refs/snodo/keys`), once per worker id. */
export {
  type RegisterWorkerKeyRequest,
  type RegisterWorkerKeyResult,
  registerWorkerKey,
} from './remote-landing/register-worker-key.js';
/** The shared remote's ref names: where a job's task commit waits, and what a ref component may be. */
export { jobResultRef, refComponentProblem } from './remote-landing/remote-landing-refs.js';
/** Refuses a remote that is not a configured remote of the clone (a URL, a typo, something flag-like). */
export { requireRemote } from './remote-landing/remote-transfer.js';
/** What `snodo audit verify --remote` found, with stable failure codes. */
export type {
  RemoteAuditFailure,
  RemoteAuditFailureCode,
  RemoteAuditVerification,
  RemoteChainSummary,
} from './remote-landing/verify-remote-audit.js';
/** A human abandons a job and its workspace. */
export { abandonJob } from './tasks/abandon-job.js';
/** A human approves an escalated job: the pipeline continues from where it stopped. */
export { approveJob } from './tasks/approve-job.js';
/** `snodo audit show | verify [--remote] | export`: read, verify with its anchors or a shared remote's, export. */
export {
  exportJobAttestation,
  readRepositoryAudit,
  verifyRemoteRepositoryAudit,
  verifyRepositoryAudit,
} from './tasks/audit-tasks.js';
/** Asks a running job to stop (audited); it ends `cancelled` with who and when. */
export { type CancelJobOptions, type CancelJobResult, cancelJob } from './tasks/cancel-job.js';
/** A job's change against its base (`snodo task diff`). */
export { diffJob } from './tasks/diff-job.js';
/** A human lands a kept branch. */
export { mergeJob } from './tasks/merge-job.js';
/** Removes finished jobs' workspaces and branches (`snodo task prune`). */
export { pruneJobs } from './tasks/prune-jobs.js';
/** The higher caps `snodo task approve --budget/--max-tokens` continues a budget-stopped job under. */
export type { BudgetRaise } from './tasks/raise-budget.js';
/** Marks jobs whose process died `interrupted` (audited), so listings never show a dead job as running. */
export { reconcileDeadJobs } from './tasks/reconcile-dead-jobs.js';
/** A human decision on a job of the shared queue, in this machine's audit log (`snodo task approve|reject`). */
export { type QueueDecisionRecord, recordQueueDecision } from './tasks/record-queue-decision.js';
/** A human rejects a halted job. */
export { rejectJob } from './tasks/reject-job.js';
/** A job with its task, attempts, verdicts and decisions (`snodo task show`). */
export { type JobDetails, showJob } from './tasks/show-job.js';
/** What every `snodo task …` action needs (the repository, the actor), and opening it. */
export { openTaskScope, type TaskCommandOptions } from './tasks/task-scope.js';
/** This package's version (recorded in the audit log's genesis). */
export { SNODO_VERSION } from './version.js';
/** The test command and workspace setup a repository's files imply (`snodo init` writes them down). */
export { detectProjectCommands, type ProjectCommands } from './workspace-setup/detect-project-commands.js';
