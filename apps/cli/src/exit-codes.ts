import type { AuditErrorCode } from '@snodo/audit';
import type { CoderLitellmErrorCode } from '@snodo/coder-litellm';
import type { CoderSdkErrorCode } from '@snodo/coder-sdk';
import type { CoreErrorCode } from '@snodo/core';
import { type FoundationErrorCode, SnodoError } from '@snodo/foundation';
import type { LlmErrorCode } from '@snodo/llm';
import type { QueueErrorCode } from '@snodo/queue';
import type { CliErrorCode } from './errors/cli-error.js';

/**
 * The one place that turns errors and results into exit codes (SPEC §9). Scripts and CI match on these,
 * so they never change meaning:
 * - 0 done;
 * - 1 governance halt (blocker, escalation, validator error, merge conflict…) — or, for `snodo doctor`
 *   and `snodo audit verify`, "a check failed";
 * - 2 bad input (usage, protocol, config, unknown coder, a job that does not exist…);
 * - 3 coder or environment failure (not installed, credentials, timeout, crash, git, unknown errors);
 * - 130 interrupted (Ctrl-C).
 *
 * Besides types it imports only the foundation (no dependencies), so the start-up path (`snodo --help`) can
 * use it for free.
 */
export const EXIT_CODES = {
  done: 0,
  halted: 1,
  badInput: 2,
  failure: 3,
  cancelled: 130,
} as const;

/** One of the exit codes above. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** Every error code snodo's packages and the CLI raise: the keys `EXIT_CODE_BY_ERROR_CODE` must cover. */
export type SnodoErrorCode =
  | AuditErrorCode
  | CliErrorCode
  | CoderLitellmErrorCode
  | CoderSdkErrorCode
  | CoreErrorCode
  | FoundationErrorCode
  | LlmErrorCode
  | QueueErrorCode;

const { halted, badInput, failure, cancelled } = EXIT_CODES;

/**
 * The exit code of every snodo error code. A `Record` over the union of every package's codes: a new or
 * renamed code that is not mapped here fails the typecheck, instead of silently becoming exit 3.
 * - 2, bad input: the user asked for something that cannot be (a flag, a file, a name, a state);
 * - 1, a governance halt found before or outside a job (the audit log tampered with, a workspace or the
 *   repository changed behind snodo's back);
 * - 130, the user stopped it;
 * - 3, a coder or environment failure.
 */
export const EXIT_CODE_BY_ERROR_CODE: Readonly<Record<SnodoErrorCode, ExitCode>> = {
  // The CLI's own.
  AUDIT_LOG_NOT_FOUND: badInput,
  CLI_USAGE: badInput,
  CLI_CANCELLED: EXIT_CODES.cancelled,
  JOB_NOT_FOUND: badInput,
  BACKGROUND_START_FAILED: failure,
  JOB_WAIT_TIMEOUT: failure,
  PROTOCOL_EXISTS: badInput,
  // The queue (`snodo submit | worker`, queue jobs): a setting, an id or a job state the user named.
  QUEUE_URL_MISSING: badInput,
  QUEUE_URL_INVALID: badInput,
  QUEUE_JOB_NOT_FOUND: badInput,
  QUEUE_JOB_STATE: badInput,
  QUEUE_SUBMISSION_INVALID: badInput,
  WORKER_SETUP_INVALID: badInput,
  // The queue's server does not answer: the environment's.
  QUEUE_UNREACHABLE: failure,
  // Protocol, config, selection and repository state the user named.
  BASE_BRANCH_NOT_FOUND: badInput,
  BASE_BRANCH_REQUIRED: badInput,
  BUDGET_INVALID: badInput,
  CODER_CONFIG_INVALID: badInput,
  CODER_REGISTRATION_INVALID: badInput,
  CODER_PACKAGE_INVALID: badInput,
  CODER_UNKNOWN: badInput,
  CONFIG_INVALID: badInput,
  CONFIG_KEY_INVALID: badInput,
  JOB_ACTION_REFUSED: badInput,
  JOB_ID_UNUSABLE: badInput,
  MODE_CANNOT_CHANGE_CODE: badInput,
  MODE_UNKNOWN: badInput,
  MODEL_CODER_MISMATCH: badInput,
  // A run needs a model nothing configures, or has no task: refused before a job exists.
  MODEL_REQUIRED: badInput,
  TASK_EMPTY: badInput,
  TASK_TOO_LARGE: badInput,
  NOT_A_GIT_REPOSITORY: badInput,
  PROTOCOL_INVALID: badInput,
  PROTOCOL_NOT_FOUND: badInput,
  PROTOCOL_TEMPLATE_UNKNOWN: badInput,
  WORKSPACE_FOREIGN: badInput,
  WORKTREE_DIRTY: badInput,
  // A remote landing or `audit verify --remote` given a remote, id or commit it cannot use.
  REMOTE_LANDING_INVALID: badInput,
  // A model string that cannot be read is a typo on the command line or in config, not a provider failure.
  LLM_MODEL_STRING_INVALID: badInput,
  // `snodo audit reset` without a reason, or with nothing to reset.
  AUDIT_RESET_REFUSED: badInput,
  // Tampering with the audit log, refused before a job exists (SPEC §9).
  AUDIT_CHAIN_INVALID: halted,
  AUDIT_LOG_BEHIND_CHECKPOINT: halted,
  AUDIT_LOG_MISSING: halted,
  AUDIT_LOG_REPLACED: halted,
  AUDIT_LOG_REWRITTEN: halted,
  // A task workspace whose git structure a coder changed, or whose branch moved behind snodo's back; the
  // repository guard's findings (a job's `failed` result never has it, but an embedder's error may).
  REPOSITORY_TAMPERED: halted,
  WORKSPACE_BRANCH_MISMATCH: halted,
  WORKSPACE_TAMPERED: halted,
  // A worker id registered on the shared remote with another key: replacing it would orphan its chain.
  WORKER_KEY_CONFLICT: halted,
  // Stopped by the user.
  CODER_ABORTED: cancelled,
  LLM_CALL_ABORTED: cancelled,
  // Coder and environment failures.
  AUDIT_CHECKPOINT_INVALID: failure,
  AUDIT_EVENT_INVALID: failure,
  AUDIT_FILE_UNREADABLE: failure,
  AUDIT_KEY_INVALID: failure,
  AUDIT_KEY_PERMISSIONS: failure,
  AUDIT_LOCK_TIMEOUT: failure,
  AUDIT_OPTIONS_INVALID: failure,
  AUDIT_WRITE_FAILED: failure,
  CODER_CLI_VERSION_UNSUPPORTED: failure,
  CODER_CONTRACT_VIOLATED: failure,
  CODER_CREDENTIALS_MISSING: failure,
  CODER_FAILED: failure,
  CODER_MODEL_PROVIDER_MISMATCH: failure,
  CODER_MODEL_REQUIRED: failure,
  CODER_NOT_INSTALLED: failure,
  CODER_PROVIDER_FAILED: failure,
  CODER_OUTPUT_TRUNCATED: failure,
  CODER_SPECIFICATION_UNSUPPORTED: failure,
  CODER_SUBMISSION_MISSING: failure,
  CODER_TIMEOUT: failure,
  CODER_TURN_BUDGET_EXHAUSTED: failure,
  CODER_UNAVAILABLE: failure,
  // A command gate's tool is missing: the gate could not decide (an outage, not a verdict).
  GATE_COMMAND_UNAVAILABLE: failure,
  GIT_COMMAND_FAILED: failure,
  GIT_METADATA_TAMPERED: failure,
  INTERNAL_ERROR: failure,
  ISOLATION_FAILED: failure,
  // A judge with tools used its whole turn budget without a verdict (never a pass).
  JUDGE_TURNS_EXHAUSTED: failure,
  LLM_CALL_FAILED: failure,
  LLM_CREDENTIALS_MISSING: failure,
  LLM_OUTPUT_INVALID: failure,
  LLM_PROVIDER_NOT_INSTALLED: failure,
  LOCK_TIMEOUT: failure,
  PROPOSAL_PATH_REFUSED: failure,
  REMOTE_TRANSFER_FAILED: failure,
  SANDBOX_INVALID: failure,
  SANDBOX_UNAVAILABLE: failure,
  SNODO_MUTATION_BLOCKED: failure,
  VERDICT_INVALID: failure,
  WORKSPACE_LAYOUT_UNSUPPORTED: failure,
  // The workspace could not be prepared (`execution.setup`): no coder run can fix that.
  WORKSPACE_SETUP_FAILED: failure,
  WORKSPACE_SETUP_TOOL_MISSING: failure,
  WORKTREE_NOT_CLEAN: failure,
};

/**
 * The exit code for a snodo error code (`CODER_TIMEOUT` → 3). A code no snodo package defines (a
 * third-party coder's own) or a missing one is a failure.
 */
export function exitCodeForErrorCode(code: string | undefined): ExitCode {
  if (code === undefined || !Object.hasOwn(EXIT_CODE_BY_ERROR_CODE, code)) return EXIT_CODES.failure;
  return EXIT_CODE_BY_ERROR_CODE[code as SnodoErrorCode];
}

/** The stable `code` of a snodo error (any package, any copy), or of a commander parse error. */
export function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** `true` for commander's own errors (`commander.unknownOption`…), which are all usage errors. */
export function isCommanderCode(code: string | undefined): boolean {
  return code?.startsWith('commander.') === true;
}

/**
 * The exit code for an error that ended a command. Commander's help and version "errors" are successes;
 * its other errors are usage errors (2). snodo errors map through their `code`; anything else (a bug, a
 * crash in a dependency) is a failure (3).
 */
export function exitCodeForError(error: unknown): ExitCode {
  const code = errorCode(error);
  if (code === 'commander.helpDisplayed' || code === 'commander.version') return EXIT_CODES.done;
  // `snodo help [command]` asked for help (commander's exit code 0); a bare `snodo` shows it as a usage error.
  if (code === 'commander.help')
    return (error as { exitCode?: unknown }).exitCode === 0 ? EXIT_CODES.done : EXIT_CODES.badInput;
  if (isCommanderCode(code)) return EXIT_CODES.badInput;
  if (!SnodoError.isInstance(error)) return EXIT_CODES.failure;
  return exitCodeForErrorCode(code);
}

/** What `exitCodeForResult` reads from a run result (a `RunTaskResult` or a landing result). */
export interface ResultStatus {
  /** The job's status: `done`, `halted`, `failed`, `cancelled`… */
  readonly status: string;
  /** The error behind a `failed` status. */
  readonly error?: { readonly code: string } | undefined;
}

/**
 * The exit code for a finished run (SPEC §9): done 0, halted 1, cancelled or interrupted 130, failed by
 * its error's code (2 for bad input found after the job started, such as an unknown coder; else 3). A job a
 * human closed (`rejected`, `abandoned`) is a successful command.
 */
export function exitCodeForResult(result: ResultStatus): ExitCode {
  switch (result.status) {
    case 'done':
    case 'rejected':
    case 'abandoned':
      return EXIT_CODES.done;
    case 'halted':
      return EXIT_CODES.halted;
    case 'cancelled':
    case 'interrupted':
      return EXIT_CODES.cancelled;
    default:
      return exitCodeForErrorCode(result.error?.code);
  }
}
