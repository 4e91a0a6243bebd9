// The one leaf every snodo package may import. Node built-ins only: no dependency of its own.
export {
  defineSnodoError,
  type SnodoErrorClass,
  type SnodoErrorDefinition,
} from './errors/define-snodo-error.js';
export { SnodoError, type SnodoErrorCodeOf, type SnodoErrorOptions } from './errors/snodo-error.js';
export { type FoundationErrorCode, LockTimeoutError } from './errors.js';
export { describeLockHolder, type LockHolder, readLockHolder } from './lock/lock-holder.js';
export {
  type FileLockOptions,
  type LockTimeout,
  type LockWait,
  withFileLock,
} from './lock/with-file-lock.js';
export { isProcessAlive, isSameProcessAlive, processStartTimeMs } from './process/process-liveness.js';
export { looksLikeSecret } from './secrets/looks-like-secret.js';
export { PatternRedactor, PRIVATE_KEY_MARKER } from './secrets/pattern-redactor.js';
export { MIN_SECRET_LENGTH, SecretMatcher } from './secrets/secret-matcher.js';
export { isSecretName, normalizeSecretName, SECRET_NAME_SUFFIXES } from './secrets/secret-name.js';
export { SECRET_PATTERNS, type SecretPattern } from './secrets/secret-patterns.js';
