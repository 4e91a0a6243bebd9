export { writeFileAtomic } from './atomic-write.js';
export { acquireFileLock, type FileLock, type FileLockOptions, withFileLock } from './file-lock.js';
