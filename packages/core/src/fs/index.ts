export { writeFileAtomic } from './atomic-write.js';
export { type FileLockOptions, withFileLock } from './file-lock.js';
export { LockTimeoutError } from './lock-timeout-error.js';
