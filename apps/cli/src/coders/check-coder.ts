// NOTE: the readiness check is core's (`checkCoder`), so `snodo coders`, `snodo doctor` and the dry run's
// plan report a coder exactly as a run checks it.
export { type CoderStatus, checkCoder } from '@snodo/core';
