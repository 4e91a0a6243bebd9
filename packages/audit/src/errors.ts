import { defineSnodoError, type SnodoError, type SnodoErrorCodeOf } from '@snodo/foundation';
import type { AuditChainError } from './errors/audit-chain-error.js';
import type { AuditEventError } from './errors/audit-event-error.js';
import type { AuditKeyPermissionError } from './errors/audit-key-permission-error.js';
import type { AuditLockTimeoutError } from './errors/audit-lock-timeout-error.js';
import type { AuditLogRewrittenError } from './errors/audit-log-rewritten-error.js';
import type { AuditWriteError } from './errors/audit-write-error.js';

/**
 * A serialised checkpoint (a commit trailer, a line of the checkpoint store) cannot be read back: it is not
 * base64url, not JSON, or lacks a field; `source` says where it came from (`trailer`, or
 * `<store path>:<line>`). Signature checks are not this error: `verifyAuditLog` reports
 * those as `E_CKPT_SIG`.
 */
export const AuditCheckpointError = defineSnodoError({
  name: 'AuditCheckpointError',
  code: 'AUDIT_CHECKPOINT_INVALID',
  message: (options: { source: string; problem: string }) =>
    `The audit checkpoint from ${options.source} cannot be read: ${options.problem}. ` +
    'It was written by another tool or damaged; verify the log without it and investigate.',
});
export type AuditCheckpointError = InstanceType<typeof AuditCheckpointError>;

/**
 * The audit log (or the checkpoint store) cannot be read at all: it does not exist, is a directory, or
 * access is denied. Distinct from a log that reads but does not verify (`AUDIT_CHAIN_INVALID`), so the
 * CLI can exit 2 (bad input) rather than 1 (tampering).
 */
export const AuditFileError = defineSnodoError({
  name: 'AuditFileError',
  code: 'AUDIT_FILE_UNREADABLE',
  message: (options: { path: string; cause: unknown }) => {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    return `Cannot read ${options.path}: ${reason}. Check the path (the audit log is .snodo/audit.log).`;
  },
});
export type AuditFileError = InstanceType<typeof AuditFileError>;

/**
 * A signing or public key cannot be used: the file is missing or unreadable, it is not an ed25519 key,
 * or `createSigningKey` would overwrite an existing key.
 */
export const AuditKeyError = defineSnodoError({
  name: 'AuditKeyError',
  code: 'AUDIT_KEY_INVALID',
  message: (options: { path?: string; problem: string; fix: string }) =>
    `${options.path === undefined ? 'The audit key' : `The audit key ${options.path}`} cannot be used: ` +
    `${options.problem}. ${options.fix}`,
});
export type AuditKeyError = InstanceType<typeof AuditKeyError>;

/**
 * A caller passed options the audit package cannot work with: creating a log without the repository's
 * identity, registering a secret too short to mask safely, exporting an attestation without a subject.
 * A programming error in the caller, never caused by the log's contents.
 */
export const AuditOptionsError = defineSnodoError({
  name: 'AuditOptionsError',
  code: 'AUDIT_OPTIONS_INVALID',
  message: (options: { option: string; problem: string; fix: string }) =>
    `Invalid audit option ${options.option}: ${options.problem}. ${options.fix}`,
});
export type AuditOptionsError = InstanceType<typeof AuditOptionsError>;

/**
 * Every error code `@snodo/audit` throws, read off the error classes themselves: renaming a code changes
 * this union, and the CLI's exit map stops compiling until the new code is mapped.
 */
export type AuditErrorCode = SnodoErrorCodeOf<
  | typeof AuditChainError
  | typeof AuditCheckpointError
  | typeof AuditEventError
  | typeof AuditFileError
  | typeof AuditKeyError
  | typeof AuditKeyPermissionError
  | typeof AuditLockTimeoutError
  | typeof AuditLogRewrittenError
  | typeof AuditOptionsError
  | typeof AuditWriteError
>;

/** Any error of `@snodo/audit`: the foundation's `SnodoError` with one of the codes above. */
export type AuditError = SnodoError<AuditErrorCode>;
