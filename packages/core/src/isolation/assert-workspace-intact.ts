import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readWorkspaceMarker, type WorkspaceMarker } from './workspace-marker.js';
import { WorkspaceTamperedError } from './workspace-tampered-error.js';

/**
 * Files that redirect git to another git directory's config, refs or objects. A regular repository
 * honours `commondir` too, so a coder that can write `.git` (it must, to commit) could plant one naming a
 * directory whose config defines a filter driver; snodo's next `git status` or `git add` outside the
 * sandbox would run it.
 */
const redirectingFiles = ['commondir', 'gitdir', 'config.worktree'];

/** How many submodule git directories are looked at before giving up (a hostile tree could hold millions). */
const maximumSubmoduleDirectories = 1000;

/**
 * Check, with the filesystem only (no git: a planted config must not get to run), that the task workspace
 * at `worktreePath` still has the shape `createTaskWorkspace` gave it, and return its marker: the workspace
 * and its `.git` are plain directories, `.git` is a repository (so git cannot climb to a parent one), the
 * marker names `branch` and `gitCommonDirectory` when given, the alternates point at that repository's
 * objects, and no git directory in it (submodules' included) holds `commondir`, `gitdir` or
 * `config.worktree`. Throws `WorkspaceTamperedError` listing every problem.
 *
 * snodo calls it before importing a workspace's branch; the pipeline should call it right after each
 * coder attempt, before running any git command in the workspace.
 */
export function assertWorkspaceIntact(options: {
  worktreePath: string;
  branch?: string;
  gitCommonDirectory?: string;
}): WorkspaceMarker {
  const { worktreePath } = options;
  const problems: string[] = [];
  const gitDirectory = path.join(worktreePath, '.git');
  const kind = (target: string): 'directory' | 'file' | 'symlink' | 'other' | 'absent' => {
    try {
      const stat = lstatSync(target);
      if (stat.isSymbolicLink()) return 'symlink';
      return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
    } catch {
      return 'absent';
    }
  };
  const fail = (): WorkspaceTamperedError => new WorkspaceTamperedError({ worktreePath, problems });

  if (kind(worktreePath) !== 'directory') problems.push('the workspace is not a plain directory any more');
  const gitKind = kind(gitDirectory);
  if (gitKind !== 'directory') problems.push(`.git is ${gitKind === 'absent' ? 'gone' : `a ${gitKind}`}`);
  if (problems.length > 0) throw fail();

  const marker = readWorkspaceMarker(worktreePath);
  if (marker === undefined) {
    problems.push('.git/snodo-workspace.json is missing or unreadable');
    throw fail();
  }
  if (options.branch !== undefined && marker.branch !== options.branch) {
    problems.push(`its marker names the branch ${marker.branch}, not ${options.branch}`);
  }
  if (options.gitCommonDirectory !== undefined && marker.gitCommonDirectory !== options.gitCommonDirectory) {
    problems.push(`its marker names the repository ${marker.gitCommonDirectory}`);
  }
  if (kind(path.join(gitDirectory, 'HEAD')) !== 'file') problems.push('.git/HEAD is missing');
  for (const directory of ['objects', 'refs']) {
    if (kind(path.join(gitDirectory, directory)) !== 'directory')
      problems.push(`.git/${directory} is missing`);
  }
  const alternates = readText(path.join(gitDirectory, 'objects', 'info', 'alternates'));
  const expectedAlternates = path.join(marker.gitCommonDirectory, 'objects');
  if (alternates?.trim() !== expectedAlternates) {
    problems.push(`.git/objects/info/alternates no longer names ${expectedAlternates}`);
  }
  for (const directory of [gitDirectory, ...submoduleGitDirectories(gitDirectory)]) {
    for (const file of redirectingFiles) {
      if (kind(path.join(directory, file)) !== 'absent') {
        problems.push(`${path.relative(worktreePath, path.join(directory, file))} appeared`);
      }
    }
  }
  if (problems.length > 0) throw fail();
  return marker;
}

/** The git directories of submodules under `<gitDirectory>/modules`, nested ones included. */
export function submoduleGitDirectories(gitDirectory: string): string[] {
  const found: string[] = [];
  const pending = [path.join(gitDirectory, 'modules')];
  while (pending.length > 0 && found.length < maximumSubmoduleDirectories) {
    const directory = pending.pop() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      continue;
    }
    // A submodule's name may contain `/`, so its git directory can sit several levels down.
    if (entries.some((entry) => entry.name === 'HEAD' && entry.isFile())) {
      found.push(directory);
      pending.push(path.join(directory, 'modules'));
      continue;
    }
    for (const entry of entries) if (entry.isDirectory()) pending.push(path.join(directory, entry.name));
  }
  return found;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
