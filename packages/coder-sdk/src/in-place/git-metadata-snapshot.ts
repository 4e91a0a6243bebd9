import os from 'node:os';
import path from 'node:path';
import type { GitMetadataChange } from '../errors/git-metadata-tampered-error.js';
import { runGit } from '../git/run-git.js';
import {
  type FileState,
  listFilesRecursively,
  readFileState,
  sameFileState,
  writeFileState,
} from './file-state.js';
import type { RepositoryPaths } from './repository-paths.js';

/**
 * The git metadata a coder could change to run code on the host, as it was before the run, with copies
 * to restore from.
 */
export interface GitMetadataSnapshot {
  /** Single files watched whether or not they exist (config, config.worktree, HEAD). */
  readonly watchedFiles: readonly string[];
  /** Directories watched for added, changed and deleted files (hooks, the `core.hooksPath` target). */
  readonly watchedDirectories: readonly string[];
  /** The state of every watched path, by absolute path. */
  readonly states: ReadonlyMap<string, FileState>;
}

/**
 * Reads `core.hooksPath` as configured in files, ignoring the `-c core.hooksPath=/dev/null` that `runGit`
 * itself adds (command-line values come first in `--show-origin` output and are skipped).
 */
async function configuredHooksPath(workspace: string): Promise<string | undefined> {
  const { stdout } = await runGit(['config', '--show-origin', '--get-all', 'core.hooksPath'], {
    cwd: workspace,
    allowedExitCodes: [1],
  });
  const values = stdout
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('command line:'))
    .map((line) => line.slice(line.indexOf('\t') + 1));
  const value = values.at(-1);
  if (value === undefined || value === '') return undefined;
  if (value === '~' || value.startsWith('~/'))
    return path.join(process.env.HOME ?? os.homedir(), value.slice(1));
  // NOTE: git runs hooks from the worktree root, so a relative hooksPath is relative to it.
  return path.resolve(workspace, value);
}

async function readStates(watchedFiles: readonly string[], watchedDirectories: readonly string[]) {
  const states = new Map<string, FileState>();
  for (const filePath of watchedFiles) states.set(filePath, await readFileState(filePath));
  for (const directory of watchedDirectories) {
    for (const filePath of await listFilesRecursively(directory)) {
      if (!states.has(filePath)) states.set(filePath, await readFileState(filePath));
    }
  }
  return states;
}

/**
 * Snapshots the repository config (shared by every worktree), the worktree's `config.worktree`, the
 * worktree's `HEAD` when it names a branch (a coder switching branches would make snodo commit on the
 * wrong one), every file under the shared `hooks/`, and the `core.hooksPath` target when one is set.
 */
export async function takeGitMetadataSnapshot(paths: RepositoryPaths): Promise<GitMetadataSnapshot> {
  const watchedFiles = [
    path.join(paths.commonDirectory, 'config'),
    path.join(paths.gitDirectory, 'config.worktree'),
    // NOTE: a `commondir` or `gitdir` file appearing in a repository's git directory makes git read another
    // directory's config (with its filters) from then on; absent before, they must stay absent.
    path.join(paths.gitDirectory, 'commondir'),
    path.join(paths.gitDirectory, 'gitdir'),
  ];
  const headPath = path.join(paths.gitDirectory, 'HEAD');
  const head = await readFileState(headPath);
  if (head.kind === 'file' && head.content.toString('utf8').startsWith('ref:')) watchedFiles.push(headPath);
  const watchedDirectories = [path.join(paths.commonDirectory, 'hooks')];
  const hooksPath = await configuredHooksPath(paths.workspace);
  if (hooksPath !== undefined && hooksPath !== '/dev/null' && !watchedDirectories.includes(hooksPath)) {
    watchedDirectories.push(hooksPath);
  }
  return { watchedFiles, watchedDirectories, states: await readStates(watchedFiles, watchedDirectories) };
}

/**
 * What changed since the snapshot, by reading the same paths again. Uses the filesystem only, no git: a
 * planted filter driver or fsmonitor must not get a chance to run before it is found.
 */
export async function findGitMetadataChanges(snapshot: GitMetadataSnapshot): Promise<GitMetadataChange[]> {
  const current = await readStates(snapshot.watchedFiles, snapshot.watchedDirectories);
  const changes: GitMetadataChange[] = [];
  const allPaths = new Set([...snapshot.states.keys(), ...current.keys()]);
  for (const filePath of [...allPaths].sort()) {
    const before = snapshot.states.get(filePath) ?? { kind: 'absent' };
    const after = current.get(filePath) ?? { kind: 'absent' };
    if (sameFileState(before, after)) continue;
    const change = before.kind === 'absent' ? 'added' : after.kind === 'absent' ? 'deleted' : 'modified';
    changes.push({ path: filePath, change });
  }
  return changes;
}

/** Puts every changed path back as the snapshot recorded it (an added hook is removed). */
export async function restoreGitMetadata(
  snapshot: GitMetadataSnapshot,
  changes: readonly GitMetadataChange[],
): Promise<void> {
  for (const change of changes) {
    await writeFileState(change.path, snapshot.states.get(change.path) ?? { kind: 'absent' });
  }
}
