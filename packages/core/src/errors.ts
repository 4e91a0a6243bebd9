import type { AuditVerifyFailure } from '@snodo/audit';
import { defineSnodoError, type SnodoErrorCodeOf } from '@snodo/foundation';
import type { CoderPackageInvalidError } from './coders/coder-package-invalid-error.js';
import type { ConfigInvalidError } from './config/config-invalid-error.js';
import type { GateCommandUnavailableError } from './gates/gate-command-unavailable-error.js';
import type { RepositoryTamperedError } from './guard/repository-tampered-error.js';
import type { IsolationFailedError } from './isolation/isolation-failed-error.js';
import type { WorkspaceBranchMismatchError } from './isolation/workspace-branch-mismatch-error.js';
import type { WorkspaceTamperedError } from './isolation/workspace-tampered-error.js';
import type { WorktreeDirtyError } from './isolation/worktree-dirty-error.js';
import type { ModelCoderMismatchError } from './models/model-coder-mismatch-error.js';
import type { ModelRequiredError } from './project/model-required-error.js';
import type { TaskEmptyError } from './project/task-empty-error.js';
import type { TaskTooLargeError } from './project/task-too-large-error.js';
import type { ProtocolInvalidError } from './protocol/protocol-invalid-error.js';
import type { SandboxUnavailableError } from './sandbox/sandbox-unavailable-error.js';

// The errors of core that are a code and a message. Those whose fields callers read are classes of their
// own, beside the code that throws them (`RepositoryTamperedError.findings`, `WorktreeDirtyError.changedPaths`).

/**
 * The audit log does not reach, or no longer matches, the newest signed checkpoint snodo holds for it: its
 * tail was cut off (`E_TRUNCATED`) or anchored events were rewritten (`E_CKPT_MISMATCH`). Appending would
 * make `snodo run` continue from the shorter log, so the run is refused before anything happens.
 */
export const AuditLogBehindCheckpointError = defineSnodoError({
  name: 'AuditLogBehindCheckpointError',
  code: 'AUDIT_LOG_BEHIND_CHECKPOINT',
  message: (options: { path: string; failure: AuditVerifyFailure }) =>
    `The audit log ${options.path} is behind its newest signed checkpoint: ${options.failure.code} ` +
    `${options.failure.reason}. Nothing ran and nothing was appended. See the whole picture with ` +
    '`snodo audit verify`; if the lost events cannot be restored, start a new log, recorded as such, ' +
    'with `snodo audit reset --reason "<why>"`.',
});
export type AuditLogBehindCheckpointError = InstanceType<typeof AuditLogBehindCheckpointError>;

/**
 * The repository's audit log is gone while signed anchors for it remain (the checkpoint store in
 * `$SNODO_HOME`, `refs/snodo/audit`). snodo never starts a fresh log over them: that would hide whatever the
 * missing log recorded. A governance halt (exit 1); only `snodo audit reset --reason` starts again.
 */
export const AuditLogMissingError = defineSnodoError({
  name: 'AuditLogMissingError',
  code: 'AUDIT_LOG_MISSING',
  message: (options: { path: string; anchors: readonly string[] }) =>
    `The audit log ${options.path} is missing, but this repository has anchors for it: ` +
    `${options.anchors.join('; ')}. snodo does not start a fresh log over them, so nothing ran. ` +
    'See what is wrong with `snodo audit verify`; if the log is lost for good, start a new one, ' +
    'recorded as such, with `snodo audit reset --reason "<why>"`.',
});
export type AuditLogMissingError = InstanceType<typeof AuditLogMissingError>;

/**
 * The audit log is not the one this repository's anchors name: its log id differs and no signed reset links
 * the two (a log written from scratch over the real one). A governance halt (exit 1): nothing is appended.
 */
export const AuditLogReplacedError = defineSnodoError({
  name: 'AuditLogReplacedError',
  code: 'AUDIT_LOG_REPLACED',
  message: (options: { path: string; logId: string; anchoredLogIds: readonly string[]; where: string }) =>
    `The audit log ${options.path} is log ${options.logId}, but ${options.where} name log ` +
    `${options.anchoredLogIds.join(', ')}, and no signed \`snodo audit reset\` links them: the log was ` +
    'replaced. Nothing was appended. See what is wrong with `snodo audit verify`; to start over on ' +
    'purpose, recorded as such, run `snodo audit reset --reason "<why>"`.',
});
export type AuditLogReplacedError = InstanceType<typeof AuditLogReplacedError>;

/** `snodo audit reset` cannot do what was asked (no reason given, or nothing to reset): bad input, exit 2. */
export const AuditResetRefusedError = defineSnodoError({
  name: 'AuditResetRefusedError',
  code: 'AUDIT_RESET_REFUSED',
  message: (options: { reason: string; fix: string }) =>
    `snodo audit reset refused: ${options.reason}. ${options.fix}`,
});
export type AuditResetRefusedError = InstanceType<typeof AuditResetRefusedError>;

/**
 * A coder registration cannot be used: two coders share an id or a model prefix, the default coder is not
 * registered, a config entry under `coders.<id>` is malformed, or a loaded adapter reports another id or
 * kind than its registration. Raised when the registry is built or a coder is loaded, before any work
 * starts, so the message points at the registration or config key to fix.
 */
/**
 * A spending cap that cannot mean anything (`--max-cost -1`, `--max-tokens 1.5`, NaN): refused before a job
 * exists, naming the flag and what it takes.
 */
export const BudgetInvalidError = defineSnodoError({
  name: 'BudgetInvalidError',
  code: 'BUDGET_INVALID',
  message: (options: { flag: string; value: string; kind: 'cost' | 'tokens' }) =>
    `${options.flag} ${options.value} is not a usable cap: ` +
    (options.kind === 'cost'
      ? 'it takes US dollars above zero, like 2.50.'
      : 'it takes a whole number of tokens above zero, like 200000.'),
});
export type BudgetInvalidError = InstanceType<typeof BudgetInvalidError>;

export const CoderRegistrationInvalidError = defineSnodoError({
  name: 'CoderRegistrationInvalidError',
  code: 'CODER_REGISTRATION_INVALID',
  message: (options: { message: string; coderId?: string }) => options.message,
});
export type CoderRegistrationInvalidError = InstanceType<typeof CoderRegistrationInvalidError>;

/**
 * `snodo config set|get|unset <key>` named a key the config does not have, a section where a value is
 * needed, or a value the key does not accept (a usage error, exit 2). The message lists the valid keys.
 */
export const ConfigKeyError = defineSnodoError({
  name: 'ConfigKeyError',
  code: 'CONFIG_KEY_INVALID',
  message: (options: { key: string; problem: string; validKeys: readonly string[]; nearest?: boolean }) =>
    `Cannot use config key \`${options.key}\`: ${options.problem}.\n` +
    `${options.nearest === true ? 'The nearest valid keys (`snodo config keys` lists them all)' : 'Valid keys'}:\n` +
    `${options.validKeys.map((key) => `  ${key}`).join('\n')}\n` +
    'For example: `snodo config set llm.validator.model <provider/model>`.',
});
export type ConfigKeyError = InstanceType<typeof ConfigKeyError>;

/**
 * snodo was pointed at a directory that is not inside a git working tree. Isolation, diffs and landing all
 * need git, so the run stops before anything happens.
 */
export const NotAGitRepositoryError = defineSnodoError({
  name: 'NotAGitRepositoryError',
  code: 'NOT_A_GIT_REPOSITORY',
  message: (options: { directory: string }) =>
    `${options.directory} is not inside a git working tree. ` +
    'Run snodo from your repository (or `git init` one first).',
});
export type NotAGitRepositoryError = InstanceType<typeof NotAGitRepositoryError>;

/**
 * The base branch given by `--base` or `execution.base_branch` is not a local branch of the repository (a
 * typo, a remote-only branch, a tag, or an unborn branch without commits). A task must start from and land
 * on a local branch, so nothing is created.
 */
export const BaseBranchNotFoundError = defineSnodoError({
  name: 'BaseBranchNotFoundError',
  code: 'BASE_BRANCH_NOT_FOUND',
  message: (options: {
    repositoryRoot: string;
    baseBranch: string;
    source: 'flag' | 'protocol' | 'checkout';
  }) => {
    const origin =
      options.source === 'flag'
        ? '--base'
        : options.source === 'protocol'
          ? 'execution.base_branch in .snodo/protocol.yml'
          : 'the current checkout';
    return (
      `The base branch "${options.baseBranch}" (from ${origin}) is not a local branch with commits in ` +
      `${options.repositoryRoot}. List branches with \`git branch\`; for a remote branch create it first ` +
      `(\`git switch ${options.baseBranch}\`), then pass \`--base <branch>\`.`
    );
  },
});
export type BaseBranchNotFoundError = InstanceType<typeof BaseBranchNotFoundError>;

/**
 * snodo cannot tell which branch a task should start from and land on: HEAD is detached (a bisect, a
 * checked-out tag or commit) and neither `--base` nor `execution.base_branch` names one. Guessing `main` is
 * what the original did; this error asks instead.
 */
export const BaseBranchRequiredError = defineSnodoError({
  name: 'BaseBranchRequiredError',
  code: 'BASE_BRANCH_REQUIRED',
  message: (options: { repositoryRoot: string; detachedCommit: string; noIsolation?: boolean }) => {
    const next = options.noIsolation
      ? 'With --no-isolation snodo commits to the current branch, so switch to one first (`git switch <branch>`).'
      : 'Pass the branch to start from and merge into: `snodo run --base <branch> "<task>"` ' +
        '(or set execution.base_branch in .snodo/protocol.yml).';
    return `HEAD in ${options.repositoryRoot} is detached at ${options.detachedCommit.slice(0, 12)}, so there is no branch to work on. ${next}`;
  },
});
export type BaseBranchRequiredError = InstanceType<typeof BaseBranchRequiredError>;

/**
 * A removal was asked for a worktree or branch snodo did not create (no `snodo/` branch prefix, a path
 * outside snodo's worktrees directory, or a lock someone else placed). snodo never touches those, even
 * with `--force`.
 */
export const ForeignWorkspaceError = defineSnodoError({
  name: 'ForeignWorkspaceError',
  code: 'WORKSPACE_FOREIGN',
  message: (options: { worktreePath: string; branch: string; reason: string }) =>
    `snodo will not remove ${options.worktreePath} (branch ${options.branch}): ${options.reason}. ` +
    'snodo only removes worktrees it created; use `git worktree remove` yourself if you mean it.',
});
export type ForeignWorkspaceError = InstanceType<typeof ForeignWorkspaceError>;

/**
 * A sandbox was asked for a workspace that cannot be contained: a linked worktree made by an earlier snodo
 * (it shares the user's refs, config, hooks and objects, so nothing in it can be writable without the
 * user's `.git` being writable), or a directory that is not one of snodo's workspaces at all.
 */
export const WorkspaceLayoutUnsupportedError = defineSnodoError({
  name: 'WorkspaceLayoutUnsupportedError',
  code: 'WORKSPACE_LAYOUT_UNSUPPORTED',
  message: (options: { worktreePath: string; reason: string }) =>
    `snodo cannot sandbox ${options.worktreePath}: ${options.reason}. Abandon that job ` +
    '(`snodo task abandon <job>`) and run the task again so it gets a workspace of its own, or run it ' +
    'with `execution.sandbox: off`.',
});
export type WorkspaceLayoutUnsupportedError = InstanceType<typeof WorkspaceLayoutUnsupportedError>;

/** A job id that names no job in this repository (or is not shaped like one). */
export const JobNotFoundError = defineSnodoError({
  name: 'JobNotFoundError',
  code: 'JOB_NOT_FOUND',
  message: (options: { jobId: string; repositoryRoot: string }) =>
    `No job '${options.jobId}' in ${options.repositoryRoot}/.snodo/jobs. ` +
    "Run 'snodo task list' to see this repository's jobs.",
});
export type JobNotFoundError = InstanceType<typeof JobNotFoundError>;

/**
 * A job id chosen by the caller (`runTask({ jobId })`, used by `snodo run --background` so the id exists
 * before the detached process starts) that is not shaped like one, or names a job that already exists.
 */
export const JobIdUnusableError = defineSnodoError({
  name: 'JobIdUnusableError',
  code: 'JOB_ID_UNUSABLE',
  message: (options: { jobId: string; reason: string }) =>
    `Cannot start a job with the id '${options.jobId}': ${options.reason}. ` +
    'Leave the id out and snodo picks a new one.',
});
export type JobIdUnusableError = InstanceType<typeof JobIdUnusableError>;

/**
 * A `snodo task …` action that does not apply to the job as it stands: approving a blocker (blockers cannot
 * be approved away), merging a running job, abandoning a job that is still running.
 */
export const JobActionRefusedError = defineSnodoError({
  name: 'JobActionRefusedError',
  code: 'JOB_ACTION_REFUSED',
  message: (options: { jobId: string; action: string; reason: string; hint?: string }) =>
    `Cannot ${options.action} job ${options.jobId}: ${options.reason}.${options.hint ? ` ${options.hint}` : ''}`,
});
export type JobActionRefusedError = InstanceType<typeof JobActionRefusedError>;

/**
 * A coder returned a result that breaks the coder-v1 contract (more than one commit for one attempt, a
 * commit reported that is not the branch tip, changes left uncommitted…). Core re-checks every attempt
 * because third-party adapters need not be built on the SDK's base classes.
 */
export const CoderContractViolationError = defineSnodoError({
  name: 'CoderContractViolationError',
  code: 'CODER_CONTRACT_VIOLATED',
  message: (options: { coderId: string; displayName: string; problem: string }) =>
    `${options.displayName} broke the coder contract: ${options.problem}. The job is kept for inspection; ` +
    `report it to the maintainers of the '${options.coderId}' coder, or run its conformance suite ` +
    '(@snodo/conformance).',
});
export type CoderContractViolationError = InstanceType<typeof CoderContractViolationError>;

/**
 * The mode a run would use has no tool that changes code (`edit` or `dispatch`), e.g. a `reviewer`: it may
 * never run a coder (SPEC §12). Refused before a job exists; exit 2.
 */
export const ModeCannotChangeCodeError = defineSnodoError({
  name: 'ModeCannotChangeCodeError',
  code: 'MODE_CANNOT_CHANGE_CODE',
  message: (options: { mode?: string; tools?: readonly string[]; executing: readonly string[] }) => {
    const which =
      options.mode === undefined
        ? 'No mode of the protocol can change code'
        : `Mode '${options.mode}' cannot change code: its tools (${options.tools?.join(', ') || 'none'}) include neither edit nor dispatch`;
    const fix =
      options.executing.length > 0
        ? `Run it in a mode that can (--mode ${options.executing.join(' | --mode ')}), or leave --mode out.`
        : 'Give a mode the `edit` tool in .snodo/protocol.yml.';
    return `${which}, so it never runs a coder. ${fix}`;
  },
});
export type ModeCannotChangeCodeError = InstanceType<typeof ModeCannotChangeCodeError>;

/** `--mode <id>` names no mode of the protocol. */
export const ModeUnknownError = defineSnodoError({
  name: 'ModeUnknownError',
  code: 'MODE_UNKNOWN',
  message: (options: { mode: string; available: readonly string[] }) =>
    `The protocol has no mode '${options.mode}'. Its modes: ${options.available.join(', ')}. ` +
    'Pass one of them with --mode, or leave --mode out to let snodo choose.',
});
export type ModeUnknownError = InstanceType<typeof ModeUnknownError>;

/** There is no protocol file where snodo looked (exit 2). `snodo init` writes one. */
export const ProtocolNotFoundError = defineSnodoError({
  name: 'ProtocolNotFoundError',
  code: 'PROTOCOL_NOT_FOUND',
  message: (options: { path: string }) =>
    `No protocol file at ${options.path}: snodo needs the repository's rules before it runs a task. ` +
    'Run `snodo init` to write one (`snodo init --template team` for several modes), then commit it.',
});
export type ProtocolNotFoundError = InstanceType<typeof ProtocolNotFoundError>;

/** `snodo init --template <name>` named a template that does not exist (a usage error, exit 2). */
export const ProtocolTemplateUnknownError = defineSnodoError({
  name: 'ProtocolTemplateUnknownError',
  code: 'PROTOCOL_TEMPLATE_UNKNOWN',
  message: (options: { template: string; available: readonly string[] }) =>
    `There is no protocol template '${options.template}'. ` +
    `Choose one of ${options.available.join(', ')}, for example \`snodo init --template ${options.available[0] ?? 'solo'}\`.`,
});
export type ProtocolTemplateUnknownError = InstanceType<typeof ProtocolTemplateUnknownError>;

/**
 * The job's workspace could not be prepared (`execution.setup`, SPEC §6): the setup command exited non-zero,
 * timed out or could not start, or it changed a tracked file. Nothing the coder could fix (it has not run):
 * an environment failure (exit 3) whose message names the command, why it failed, its last output lines
 * and what to change.
 */
export const WorkspaceSetupFailedError = defineSnodoError({
  name: 'WorkspaceSetupFailedError',
  code: 'WORKSPACE_SETUP_FAILED',
  message: (options: { command: string; source: string; reason: string; outputTail?: string; fix: string }) =>
    `Workspace setup \`${options.command}\` (from ${options.source}) ${options.reason}.` +
    (options.outputTail ? `\n${options.outputTail}\n` : ' ') +
    options.fix,
});
export type WorkspaceSetupFailedError = InstanceType<typeof WorkspaceSetupFailedError>;

/**
 * The program workspace setup needs (`npm`, `uv`, `go`…) is not on PATH here. An environment finding (exit
 * 3), reported before anything runs, with the two ways out: install the tool, or set `execution.setup`.
 */
export const WorkspaceSetupToolMissingError = defineSnodoError({
  name: 'WorkspaceSetupToolMissingError',
  code: 'WORKSPACE_SETUP_TOOL_MISSING',
  message: (options: { tool: string; command: string; source: string }) =>
    `Workspace setup needs \`${options.tool}\` to run \`${options.command}\` (detected from ` +
    `${options.source}), but \`${options.tool}\` is not on PATH. Install it, or set \`execution.setup\` ` +
    'in .snodo/protocol.yml to the command that prepares this repository (`none` to skip setup).',
});
export type WorkspaceSetupToolMissingError = InstanceType<typeof WorkspaceSetupToolMissingError>;

/**
 * A remote landing, a key registration or `snodo audit verify --remote` was given something it cannot use:
 * a remote that is not configured in the clone, a worker id, job id or branch that cannot be part of a ref
 * name, a commit id that is not one. Bad input (exit 2), refused before anything is fetched or pushed.
 */
export const RemoteLandingInvalidError = defineSnodoError({
  name: 'RemoteLandingInvalidError',
  code: 'REMOTE_LANDING_INVALID',
  message: (options: { what: string; value: string; problem: string }) =>
    `${options.what} ${JSON.stringify(options.value)} cannot be used: ${options.problem}.`,
});
export type RemoteLandingInvalidError = InstanceType<typeof RemoteLandingInvalidError>;

/**
 * A worker id is registered on the shared remote with another public key than this `$SNODO_HOME`'s:
 * registering would replace the key every checkpoint of that worker's chain was signed with. A governance
 * halt (exit 1); the fix is another worker id, or this machine's old `$SNODO_HOME`.
 */
export const WorkerKeyConflictError = defineSnodoError({
  name: 'WorkerKeyConflictError',
  code: 'WORKER_KEY_CONFLICT',
  message: (options: { workerId: string; remote: string; registeredKeyId: string; keyId: string }) =>
    `Worker ${options.workerId} is registered on ${options.remote} with key ${options.registeredKeyId}, but this ` +
    `machine's signing key is ${options.keyId}. snodo never replaces a registered key (it signed that worker's ` +
    'chain). Start this worker with another worker id, or with the SNODO_HOME that holds the registered key.',
});
export type WorkerKeyConflictError = InstanceType<typeof WorkerKeyConflictError>;

/**
 * The shared remote could not be read or written for a reason that is not a lost race: git could not reach
 * it, or refused the transfer. An environment failure (exit 3) naming git's message.
 */
export const RemoteTransferFailedError = defineSnodoError({
  name: 'RemoteTransferFailedError',
  code: 'REMOTE_TRANSFER_FAILED',
  message: (options: { remote: string; operation: string; detail: string }) =>
    `Could not ${options.operation} ${options.remote}: ${options.detail}. Check that the remote is reachable ` +
    `(\`git ls-remote ${options.remote}\`) and try again.`,
});
export type RemoteTransferFailedError = InstanceType<typeof RemoteTransferFailedError>;

/**
 * Every error code `@snodo/core` throws, read off the error classes themselves (renaming a code changes
 * this union, and the CLI's exit map stops compiling until the new code is mapped), and `INTERNAL_ERROR`:
 * the code a job's result carries when something that is not a snodo error ended it (a bug).
 */
export type CoreErrorCode =
  | 'INTERNAL_ERROR'
  | SnodoErrorCodeOf<
      | typeof AuditLogBehindCheckpointError
      | typeof AuditLogMissingError
      | typeof AuditLogReplacedError
      | typeof AuditResetRefusedError
      | typeof BaseBranchNotFoundError
      | typeof BaseBranchRequiredError
      | typeof BudgetInvalidError
      | typeof CoderContractViolationError
      | typeof CoderPackageInvalidError
      | typeof CoderRegistrationInvalidError
      | typeof ConfigInvalidError
      | typeof ConfigKeyError
      | typeof ForeignWorkspaceError
      | typeof GateCommandUnavailableError
      | typeof IsolationFailedError
      | typeof JobActionRefusedError
      | typeof JobIdUnusableError
      | typeof JobNotFoundError
      | typeof ModeCannotChangeCodeError
      | typeof ModelCoderMismatchError
      | typeof ModelRequiredError
      | typeof ModeUnknownError
      | typeof NotAGitRepositoryError
      | typeof ProtocolInvalidError
      | typeof ProtocolNotFoundError
      | typeof ProtocolTemplateUnknownError
      | typeof RemoteLandingInvalidError
      | typeof RemoteTransferFailedError
      | typeof RepositoryTamperedError
      | typeof SandboxUnavailableError
      | typeof TaskEmptyError
      | typeof TaskTooLargeError
      | typeof WorkspaceBranchMismatchError
      | typeof WorkspaceLayoutUnsupportedError
      | typeof WorkspaceSetupFailedError
      | typeof WorkspaceSetupToolMissingError
      | typeof WorkspaceTamperedError
      | typeof WorkerKeyConflictError
      | typeof WorktreeDirtyError
    >;
