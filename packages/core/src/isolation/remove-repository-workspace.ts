import type { ForeignWorkspaceError } from '../errors.js';
import { git } from '../git/git.js';
import { isAncestor, resolveCommits } from '../git/rev-parse.js';
import { workingTreeStatus } from '../git/working-tree-status.js';
import { assertWorkspaceIntact } from './assert-workspace-intact.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import { removeDirectory } from './remove-directory.js';
import type { WorkspaceMarker } from './workspace-marker.js';
import { WorktreeDirtyError } from './worktree-dirty-error.js';

/**
 * Delete a task workspace repository whose marker snodo wrote. Refused (even with `force`) when the
 * marker names another repository or branch; without `force`, refused when the workspace is not intact
 * (`WorkspaceTamperedError`: no git runs in it then), has uncommitted changes (`WorktreeDirtyError`), or
 * holds commits that neither the user's task branch nor its base contains (they were never imported, and
 * would be lost: the user may have committed there).
 */
export async function removeRepositoryWorkspace(options: {
  repositoryRoot: string;
  gitCommonDirectory: string;
  worktreePath: string;
  marker: WorkspaceMarker;
  branch: string;
  baseRef: string | undefined;
  force: boolean;
  foreign: (reason: string) => ForeignWorkspaceError;
}): Promise<true> {
  const { marker, worktreePath } = options;
  if (marker.gitCommonDirectory !== options.gitCommonDirectory) {
    throw options.foreign(`it is a workspace of the repository ${marker.gitCommonDirectory}`);
  }
  if (marker.branch !== options.branch) {
    throw options.foreign(`it is the workspace of ${marker.branch}, not ${options.branch}`);
  }
  if (!options.force) {
    assertWorkspaceIntact({
      worktreePath,
      branch: options.branch,
      gitCommonDirectory: options.gitCommonDirectory,
    });
    await assertNothingWouldBeLost({ ...options, baseRef: options.baseRef ?? marker.baseRef });
  }
  try {
    await removeDirectory(worktreePath);
    return true;
  } catch (error) {
    throw new IsolationFailedError({
      operation: 'remove',
      message: `Could not delete the task workspace ${worktreePath}: ${(error as Error).message}`,
      cause: error,
    });
  }
}

async function assertNothingWouldBeLost(options: {
  repositoryRoot: string;
  worktreePath: string;
  branch: string;
  baseRef: string;
}): Promise<void> {
  const { worktreePath } = options;
  // The workspace's refs are listed while its status is read: two reads of it, neither depending on the other.
  const listing = git(
    [
      'for-each-ref',
      '--format=%(if)%(*objectname)%(then)%(*objectname)%(else)%(objectname)%(end) %(refname)',
    ],
    { cwd: worktreePath, readOnly: true },
  );
  listing.catch(() => undefined);
  const changes = await workingTreeStatus(worktreePath);
  if (changes.length > 0) {
    throw new WorktreeDirtyError({
      worktreePath,
      changedPaths: changes.map((change) => change.path),
      purpose: 'remove',
    });
  }
  const baseRef = options.baseRef.startsWith('refs/') ? options.baseRef : `refs/heads/${options.baseRef}`;
  const keepers = (
    await resolveCommits(options.repositoryRoot, [`refs/heads/${options.branch}`, baseRef])
  ).filter((commit): commit is string => commit !== undefined);
  // Every ref of the workspace (its branches, tags, a stash) and a detached HEAD must be contained in one
  // of them. The workspace sees the user's commits through its alternate, so git can answer there.
  const listed = await listing;
  const tips = listed.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => ({ commit: line.slice(0, line.indexOf(' ')), name: line.slice(line.indexOf(' ') + 1) }));
  // One batch answers HEAD and which tips are commits (a tag may name a tree or a blob).
  const [head, ...tipCommits] = await resolveCommits(worktreePath, [
    'HEAD',
    ...tips.map((tip) => tip.commit),
  ]);
  const commitTips = tips.filter((_, index) => tipCommits[index] !== undefined);
  if (head !== undefined) commitTips.push({ commit: head, name: 'HEAD' });
  const lost: string[] = [];
  for (const tip of commitTips) {
    let kept = false;
    for (const keeper of keepers) {
      if (await isAncestor(worktreePath, tip.commit, keeper)) {
        kept = true;
        break;
      }
    }
    if (!kept) lost.push(`${tip.name.replace(/^refs\/heads\//, '')} (${tip.commit.slice(0, 12)})`);
  }
  if (lost.length > 0) {
    throw new IsolationFailedError({
      operation: 'remove',
      message:
        `${worktreePath} has commits that are not in your repository: ${[...new Set(lost)].join(', ')}. ` +
        `Inspect them with \`git -C ${worktreePath} log --all\`, keep what you want (for example ` +
        `\`git -C ${options.repositoryRoot} fetch ${worktreePath} <ref>:refs/heads/<new-branch>\`), ` +
        'or pass --force to discard them.',
    });
  }
}
