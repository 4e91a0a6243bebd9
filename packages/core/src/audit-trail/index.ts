export {
  AUDIT_CHECKPOINT_REF,
  auditLogPath,
  checkpointStorePath,
  signingKeyDirectory,
} from './audit-paths.js';
export { type AuditCheckpoint, AuditTrail } from './audit-trail.js';
export { appendCheckpointToRef, readCheckpointsFromRef } from './checkpoint-ref.js';
export { loadOrCreateSigningKey } from './signing-key-store.js';
