export { BaseBranchNotFoundError } from './base-branch-not-found-error.js';
export { BaseBranchRequiredError } from './base-branch-required-error.js';
export { overlappingPaths } from './base-checkout.js';
export { isBranchMerged } from './branch-merged.js';
export {
  type CreateTaskWorkspaceOptions,
  createTaskWorkspace,
  type TaskWorkspace,
} from './create-task-workspace.js';
export { ForeignWorkspaceError } from './foreign-workspace-error.js';
export { IsolationFailedError } from './isolation-failed-error.js';
export {
  type LandingOutcome,
  type LandingStrategy,
  type LandTaskBranchOptions,
  type LandTaskBranchResult,
  landTaskBranch,
} from './land-task-branch.js';
export { landingMessage } from './landing-message.js';
export { listTaskWorkspaces, type TaskWorkspaceEntry } from './list-task-workspaces.js';
export { projectDirectoryName } from './project-directory-name.js';
export {
  type PruneTaskWorkspaceResult,
  type PruneTaskWorkspacesOptions,
  pruneTaskWorkspaces,
} from './prune-task-workspaces.js';
export {
  type RemoveTaskWorkspaceOptions,
  type RemoveTaskWorkspaceResult,
  removeTaskWorkspace,
} from './remove-task-workspace.js';
export {
  isProcessAlive,
  mergeLockFileName,
  type RepositoryMergeLockOptions,
  withRepositoryMergeLock,
  worktreeLockFileName,
} from './repository-merge-lock.js';
export { type ResolvedBaseBranch, resolveBaseBranch } from './resolve-base-branch.js';
export { taskBranchName, taskBranchPrefix, taskSlug } from './task-branch-name.js';
export { type CurrentCheckoutWorkspace, useCurrentCheckout } from './use-current-checkout.js';
export {
  type ParsedWorkspaceLockReason,
  parseWorkspaceLockReason,
  workspaceLockReason,
} from './workspace-lock-reason.js';
export { WorktreeDirtyError } from './worktree-dirty-error.js';
