export { type FileLockOptions, LockTimeoutError, withFileLock } from '@snodo/foundation';
export { writeFileAtomic } from './atomic-write.js';
