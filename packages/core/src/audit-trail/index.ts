export {
  AuditLogBehindCheckpointError,
  AuditLogMissingError,
  AuditLogReplacedError,
  AuditResetRefusedError,
} from '../errors.js';
export {
  type AuditLineage,
  checkLineageFit,
  readAuditLineage,
} from './audit-lineage.js';
export {
  AUDIT_CHECKPOINT_REF,
  archivedAuditLogPath,
  auditLogPath,
  checkpointStoreDirectory,
  checkpointStorePath,
  REMOTE_AUDIT_REF_PREFIX,
  remoteAuditRef,
  repositoryCheckpointStorePath,
  signingKeyDirectory,
} from './audit-paths.js';
export { fetchRemoteAuditRef, pushAuditRef, type RemoteAuditFetch } from './audit-remote.js';
export {
  type AuditCheckpoint,
  AuditTrail,
  type AuditTrailOptions,
  repositoryIdentity,
} from './audit-trail.js';
export {
  type AuditAnchorCheck,
  type AuditTamperCode,
  type AuditTamperFinding,
  checkAuditAnchors,
} from './check-audit-anchors.js';
export {
  appendCheckpointToRef,
  newestRefCheckpoint,
  type RefCheckpointCommit,
  readCheckpointsFromRef,
  readRefCheckpointCommits,
} from './checkpoint-ref.js';
export { type AuditResetOptions, type AuditResetResult, resetAuditTrail } from './reset-audit-trail.js';
export { loadOrCreateSigningKey } from './signing-key-store.js';
export {
  type AuditAnchorLocation,
  type AuditAnchorSnapshot,
  snapshotAuditAnchors,
} from './snapshot-audit-anchors.js';
export {
  type CheckpointSources,
  inspectRepositoryAudit,
  type RepositoryAuditInspection,
  type RepositoryAuditVerification,
} from './verify-repository-anchors.js';
