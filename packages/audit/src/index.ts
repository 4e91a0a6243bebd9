export {
  type AttestationSubject,
  type AttestationVerification,
  type ExportAttestationOptions,
  exportAttestation,
  IN_TOTO_PAYLOAD_TYPE,
  IN_TOTO_STATEMENT_TYPE,
  type InTotoStatement,
  SNODO_JOB_PREDICATE_TYPE,
  verifyAttestation,
} from './attestation.js';
export type { AuditData, AuditEvent, AuditEventBody, AuditEventInput, AuditValue } from './audit-event.js';
export { GENESIS_PREV, LOG_CREATE_TYPE, LOG_RECOVER_TYPE } from './audit-event.js';
export { type AuditHead, AuditLog } from './audit-log.js';
export {
  type AuditLogHeadRecord,
  type AuditLogPrevious,
  type AuditLogReset,
  checkResetSignature,
  RESET_DOMAIN,
  type ResetAuditLogOptions,
  resetAuditLog,
} from './audit-log-reset.js';
export type {
  AuditVerifyFailure,
  AuditVerifyFailureCode,
  AuditVerifyResult,
  AuditVerifyWarning,
  AuditVerifyWarningCode,
} from './audit-verify-result.js';
export { type CanonicalJsonOptions, canonicalJson } from './canonical-json.js';
export {
  type AuditCheckpointBody,
  CHECKPOINT_DOMAIN,
  type CheckpointHead,
  checkCheckpointSignature,
  type SignedCheckpoint,
  signCheckpoint,
} from './checkpoint.js';
export { appendCheckpoint, parseCheckpoint, readCheckpoints } from './checkpoint-store.js';
export {
  CHECKPOINT_TRAILER_KEY,
  formatCheckpointTrailer,
  parseCheckpointTrailer,
} from './checkpoint-trailer.js';
export {
  type DsseEnvelope,
  type DsseSignature,
  type OpenedEnvelope,
  openEnvelope,
  preAuthEncoding,
  signEnvelope,
} from './dsse.js';
export { AuditChainError } from './errors/audit-chain-error.js';
export { AuditEventError } from './errors/audit-event-error.js';
export { AuditKeyPermissionError } from './errors/audit-key-permission-error.js';
export { AuditLockTimeoutError } from './errors/audit-lock-timeout-error.js';
export { AuditLogRewrittenError } from './errors/audit-log-rewritten-error.js';
export { AuditWriteError } from './errors/audit-write-error.js';
export {
  AuditCheckpointError,
  type AuditError,
  type AuditErrorCode,
  AuditFileError,
  AuditKeyError,
  AuditOptionsError,
} from './errors.js';
export { EVENT_HASH_DOMAIN, hashEvent, type SerializedEvent, serializeEvent } from './event-hash.js';
export { type OpenAuditLogOptions, openAuditLog } from './open-audit-log.js';
export { type ReadAuditEventsOptions, readAuditEvents } from './read-audit-events.js';
export { type AuditLogGenesis, readLogGenesis } from './read-log-genesis.js';
export { MIN_SECRET_LENGTH, REDACTED, Redactor, SECRET_KEY_SUFFIXES } from './redactor.js';
export {
  createSigningKey,
  keyIdOf,
  loadPublicKey,
  loadSigningKey,
  PUBLIC_KEY_FILE,
  SIGNING_KEY_FILE,
  type SigningKey,
} from './signing-key.js';
export { type AuditLogSnapshot, type SnapshotRange, snapshotAuditLog } from './snapshot-audit-log.js';
export { type VerifyAuditLogOptions, verifyAuditLog } from './verify-audit-log.js';
export {
  type AuditLogGrowth,
  type AuditLogGrowthFailureCode,
  verifyAuditLogGrowth,
} from './verify-audit-log-growth.js';
export {
  type TailVerifyResult,
  type VerifiedFrom,
  verifyAuditLogFromCheckpoint,
} from './verify-from-checkpoint.js';
