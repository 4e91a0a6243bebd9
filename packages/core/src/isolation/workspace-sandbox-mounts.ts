import { existsSync, lstatSync } from 'node:fs';
import path from 'node:path';
import type { CoderV1SandboxMount } from '@snodo/coder-sdk';
import { WorkspaceLayoutUnsupportedError } from '../errors.js';
import { alternateObjectDirectories } from '../git/alternate-object-directories.js';
import { submoduleGitDirectories } from './assert-workspace-intact.js';
import { canonicalPath } from './path-inside.js';
import { readWorkspaceMarker, workspaceMarkerFileName } from './workspace-marker.js';

/** Inside a git directory: what a coder's git never needs to write, and must not. */
const protectedEntries = ['config', 'hooks', 'info', path.join('objects', 'info')];

/**
 * The mounts a sandbox needs for the task workspace at `worktreePath` (SPEC §12), to be added to the
 * job's sandbox after its hides: the workspace read-write, so the coder edits files and commits on its
 * own branch; inside it, read-only, `.git/config`, `.git/hooks`, `.git/info`, `.git/objects/info` (the
 * alternates), the marker and `.git/shallow`, and the same in each submodule's git directory; and
 * read-only, the object directories the alternates name (the user's object store, and recursively its
 * own alternates), which the sandbox otherwise hides with the main checkout. The coder can read every
 * object, and write only objects and refs of its own repository.
 *
 * `.git` itself is also mounted (read-write, onto itself) so it is a mount point: a mount point cannot
 * be renamed or removed, and without that a coder could move `.git` aside and put a directory with a
 * config of its own in its place, which snodo's git would then read outside the sandbox.
 *
 * Sync and filesystem-only. Throws `WorkspaceLayoutUnsupportedError` for a linked worktree of an earlier
 * snodo, or a directory that is not one of snodo's workspaces.
 */
export function workspaceSandboxMounts(worktreePath: string): CoderV1SandboxMount[] {
  const workspace = canonicalPath(worktreePath);
  const gitDirectory = path.join(workspace, '.git');
  const isFile = (() => {
    try {
      return lstatSync(gitDirectory).isFile();
    } catch {
      return false;
    }
  })();
  if (isFile) {
    throw new WorkspaceLayoutUnsupportedError({
      worktreePath: workspace,
      reason:
        'it is a linked worktree made by an earlier snodo, which shares your refs, config and hooks, so ' +
        'it cannot be made writable without your repository being writable',
    });
  }
  if (readWorkspaceMarker(workspace) === undefined) {
    throw new WorkspaceLayoutUnsupportedError({
      worktreePath: workspace,
      reason: `it has no ${path.join('.git', workspaceMarkerFileName)}, so it is not a workspace snodo created`,
    });
  }
  const readWrite = (target: string): CoderV1SandboxMount => ({ type: 'read-write', path: target });
  const readOnly = (target: string): CoderV1SandboxMount => ({ type: 'read-only', path: target });
  const mounts: CoderV1SandboxMount[] = [readWrite(workspace), readWrite(gitDirectory)];
  for (const entry of [...protectedEntries, workspaceMarkerFileName, 'shallow']) {
    const target = path.join(gitDirectory, entry);
    if (existsSync(target)) mounts.push(readOnly(target));
  }
  const submodules = submoduleGitDirectories(gitDirectory);
  for (const submodule of submodules) {
    mounts.push(readWrite(submodule));
    for (const entry of [...protectedEntries, 'shallow']) {
      const target = path.join(submodule, entry);
      if (existsSync(target)) mounts.push(readOnly(target));
    }
  }
  const borrowed = new Set<string>();
  for (const directory of [gitDirectory, ...submodules]) {
    for (const objects of alternateObjectDirectories(path.join(directory, 'objects'))) {
      if (!borrowed.has(objects) && existsSync(objects)) mounts.push(readOnly(objects));
      borrowed.add(objects);
    }
  }
  return mounts;
}
