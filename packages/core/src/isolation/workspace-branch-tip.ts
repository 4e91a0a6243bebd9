import { existsSync } from 'node:fs';
import { resolveCommit } from '../git/rev-parse.js';
import { assertWorkspaceIntact } from './assert-workspace-intact.js';

/**
 * The commit the task branch points at inside a workspace repository, or `undefined` when there is no
 * such workspace (removed, a linked worktree, not snodo's). Throws `WorkspaceTamperedError` when the
 * workspace exists but is no longer the shape snodo made it, since reading it would mean running git in
 * a directory whose config may not be snodo's. `snodo task diff | merge | approve` read a kept job's
 * branch here: the user may have committed in the workspace after the job stopped.
 */
export async function workspaceBranchTip(options: {
  worktreePath: string;
  branch: string;
}): Promise<string | undefined> {
  if (!existsSync(options.worktreePath)) return undefined;
  assertWorkspaceIntact({ worktreePath: options.worktreePath, branch: options.branch });
  return resolveCommit(options.worktreePath, `refs/heads/${options.branch}`);
}
