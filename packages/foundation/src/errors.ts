import { defineSnodoError } from './errors/define-snodo-error.js';

/** Every error code `@snodo/foundation` throws; the CLI maps each to an exit code. */
export type FoundationErrorCode = 'LOCK_TIMEOUT';

/**
 * Waiting for one of snodo's cross-process locks took longer than allowed (`withFileLock`). Names the
 * holder, what the lock protects, and the file.
 */
export const LockTimeoutError = defineSnodoError({
  name: 'LockTimeoutError',
  code: 'LOCK_TIMEOUT' satisfies FoundationErrorCode,
  message: (options: { lockPath: string; purpose: string; holder: string }) =>
    `Another ${options.purpose} is still running: ${options.holder} holds ${options.lockPath}. ` +
    'Wait for it and try again, or delete that file if no snodo is running.',
});
export type LockTimeoutError = InstanceType<typeof LockTimeoutError>;
