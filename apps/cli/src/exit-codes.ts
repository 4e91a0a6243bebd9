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
 * This module imports nothing, so the start-up path (`snodo --help`) can use it for free.
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

/** Error codes that mean "the user asked for something that cannot be": exit 2. */
const BAD_INPUT_CODES: ReadonlySet<string> = new Set([
  'CLI_USAGE',
  'PROTOCOL_EXISTS',
  'AUDIT_LOG_NOT_FOUND',
  'CODER_UNKNOWN',
  'MODEL_CODER_MISMATCH',
  'MODE_UNKNOWN',
  'MODE_CANNOT_CHANGE_CODE',
  'NOT_A_GIT_REPOSITORY',
  'WORKTREE_DIRTY',
  'JOB_NOT_FOUND',
  'JOB_ACTION_REFUSED',
  'CODER_REGISTRATION_INVALID',
  'CODER_CONFIG_INVALID',
  'WORKSPACE_FOREIGN',
  // A model string that cannot be read is a typo on the command line or in config, not a provider failure.
  'LLM_MODEL_STRING_INVALID',
  // `snodo audit reset` without a reason, or with nothing to reset.
  'AUDIT_RESET_REFUSED',
]);

/** Codes of a governance halt found before or outside a job (SPEC §9: tampering with the audit log). */
const HALT_CODES: ReadonlySet<string> = new Set([
  'AUDIT_LOG_MISSING',
  'AUDIT_LOG_REPLACED',
  'AUDIT_LOG_BEHIND_CHECKPOINT',
  'AUDIT_LOG_REWRITTEN',
  // A log whose chain no longer verifies (an edited event): refused before a job exists.
  'AUDIT_CHAIN_INVALID',
  // A task workspace whose git structure a coder changed, or whose branch moved behind snodo's back.
  'WORKSPACE_TAMPERED',
  'WORKSPACE_BRANCH_MISMATCH',
  // The repository guard found what a coder or gate changed (a job's `failed` result never has it, but an
  // embedder's error may).
  'REPOSITORY_TAMPERED',
]);

/** Families of bad-input codes: `PROTOCOL_INVALID`, `CONFIG_KEY_INVALID`, `BASE_BRANCH_REQUIRED`… */
const BAD_INPUT_PREFIXES = ['PROTOCOL_', 'CONFIG_', 'BASE_BRANCH_'] as const;

/** Codes of a run or call that the user stopped. */
const CANCELLED_CODES: ReadonlySet<string> = new Set(['CODER_ABORTED', 'LLM_CALL_ABORTED', 'CANCELLED']);

/** The exit code for a snodo error code (`CODER_TIMEOUT` → 3). Unknown or missing codes are failures. */
export function exitCodeForErrorCode(code: string | undefined): ExitCode {
  if (code === undefined) return EXIT_CODES.failure;
  if (BAD_INPUT_CODES.has(code) || BAD_INPUT_PREFIXES.some((prefix) => code.startsWith(prefix)))
    return EXIT_CODES.badInput;
  if (CANCELLED_CODES.has(code)) return EXIT_CODES.cancelled;
  if (HALT_CODES.has(code)) return EXIT_CODES.halted;
  return EXIT_CODES.failure;
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
  if (isCommanderCode(code)) return EXIT_CODES.badInput;
  const isSnodoError =
    error !== null &&
    typeof error === 'object' &&
    (error as Record<symbol, unknown>)[Symbol.for('snodo.error')] === true;
  if (!isSnodoError) return EXIT_CODES.failure;
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
