export { NotAGitRepositoryError } from '../errors.js';
export { alternateObjectDirectories } from './alternate-object-directories.js';
export { commitTree } from './commit-tree.js';
export { type CommitWithMessageOptions, commitWithMessage } from './commit-with-message.js';
export { compareAndSwapReference } from './compare-and-swap-reference.js';
export { type CurrentBranch, currentBranch } from './current-branch.js';
export { type DiffNameStatusEntry, diffNameStatus, parseNameStatus } from './diff-name-status.js';
export { diffPatch } from './diff-patch.js';
export { fetchCommit } from './fetch-commit.js';
export { type GitOptions, type GitResult, git, gitEnvironment, hardeningArguments } from './git.js';
export { GitCommandError } from './git-command-error.js';
export {
  fallbackIdentity,
  type GitIdentity,
  identityEnvironment,
  resolveGitIdentity,
} from './git-identity.js';
export { listWorktrees, parseWorktreeList, type WorktreeEntry } from './list-worktrees.js';
export { type MergeTreesResult, mergeTrees } from './merge-trees.js';
export { type ObjectFormat, objectFormat } from './object-format.js';
export { findGitCommonDirectory, findGitDirectory, findRepositoryRoot } from './repository-paths.js';
export { isAncestor, relateCommits, resolveCommit, resolveCommits, revParse } from './rev-parse.js';
export {
  isWorkingTreeClean,
  parsePorcelainStatus,
  type StatusEntry,
  workingTreeStatus,
} from './working-tree-status.js';
