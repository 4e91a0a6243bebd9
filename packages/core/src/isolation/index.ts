export {
  BaseBranchNotFoundError,
  BaseBranchRequiredError,
  ForeignWorkspaceError,
  WorkspaceLayoutUnsupportedError,
} from '../errors.js';
export { assertWorkspaceIntact } from './assert-workspace-intact.js';
export { overlappingPaths } from './base-checkout.js';
export { isBranchMerged } from './branch-merged.js';
export {
  type CreateTaskWorkspaceOptions,
  createTaskWorkspace,
  type TaskWorkspace,
  type TaskWorkspaceLayout,
} from './create-task-workspace.js';
export {
  type ImportTaskBranchOptions,
  type ImportTaskBranchResult,
  importTaskBranch,
} from './import-task-branch.js';
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
  mergeLockFileName,
  type RepositoryMergeLockOptions,
  withRepositoryMergeLock,
  worktreeLockFileName,
} from './repository-merge-lock.js';
export { type ResolvedBaseBranch, resolveBaseBranch } from './resolve-base-branch.js';
export { taskBranchName, taskBranchPrefix, taskSlug } from './task-branch-name.js';
export { type CurrentCheckoutWorkspace, useCurrentCheckout } from './use-current-checkout.js';
export {
  type WorkspaceBranchMismatch,
  WorkspaceBranchMismatchError,
} from './workspace-branch-mismatch-error.js';
export { workspaceBranchTip } from './workspace-branch-tip.js';
export { shellWord, workspaceUpdateCommand } from './workspace-commands.js';
export {
  type ParsedWorkspaceLockReason,
  parseWorkspaceLockReason,
  workspaceLockReason,
} from './workspace-lock-reason.js';
export {
  readWorkspaceMarker,
  type WorkspaceMarker,
  workspaceMarkerFileName,
  workspaceMarkerPath,
} from './workspace-marker.js';
export { workspaceSandboxMounts } from './workspace-sandbox-mounts.js';
export { WorkspaceTamperedError } from './workspace-tampered-error.js';
export { WorktreeDirtyError } from './worktree-dirty-error.js';
