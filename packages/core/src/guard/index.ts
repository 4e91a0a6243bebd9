export type { GuardedPath } from './guarded-files.js';
export { type GuardScope, guardedPaths } from './guarded-paths.js';
export {
  type GuardCheck,
  type GuardSnapshot,
  type GuardSnapshotTaker,
  RepositoryGuard,
} from './repository-guard.js';
export {
  describeTamperFinding,
  RepositoryTamperedError,
  type TamperFinding,
} from './repository-tampered-error.js';
