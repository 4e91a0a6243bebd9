import { readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from '../git/run-git.js';
import { type FileState, readFileState, sameFileState, writeFileState } from './file-state.js';
import { splitNul } from './repository-paths.js';

/** The directory a coder may never change. */
export const SNODO_DIRECTORY = '.snodo';

/** `.snodo/` in a worktree as it was before the run, with copies to restore from. */
export interface SnodoDirectorySnapshot {
  /** The worktree root. */
  readonly workspace: string;
  /** Paths (relative, `/`-separated) snodo itself writes during the run: the job's own directory. */
  readonly exemptPrefixes: readonly string[];
  /** The state of every watched path, by relative path. */
  readonly states: ReadonlyMap<string, FileState>;
}

function isExempt(relativePath: string, exemptPrefixes: readonly string[]): boolean {
  return exemptPrefixes.some((prefix) => relativePath === prefix || relativePath.startsWith(`${prefix}/`));
}

/**
 * The files under `.snodo/` that count: tracked ones, and untracked ones git does not ignore. Ignored files
 * there are snodo's own runtime files (job directories, the audit log, locks), which core excludes through
 * `info/exclude` and which other snodo processes may write at any time.
 */
async function listWatchedPaths(workspace: string, exemptPrefixes: readonly string[]): Promise<string[]> {
  const { stdout } = await runGit(
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', SNODO_DIRECTORY],
    { cwd: workspace },
  );
  return [...new Set(splitNul(stdout))].filter((entry) => !isExempt(entry, exemptPrefixes)).sort();
}

/**
 * Snapshots `.snodo/` in the worktree. `exemptPaths` are absolute paths snodo writes during the run
 * (the transcript, the stored instructions); when they fall inside the worktree their directories are
 * left out, so `--no-isolation` runs do not trip over their own job files.
 */
export async function takeSnodoDirectorySnapshot(
  workspace: string,
  exemptPaths: readonly string[],
): Promise<SnodoDirectorySnapshot> {
  const exemptPrefixes = exemptPaths
    .map((exemptPath) => path.relative(workspace, path.dirname(exemptPath)).split(path.sep).join('/'))
    .filter((relative) => relative.startsWith(`${SNODO_DIRECTORY}/`));
  const states = new Map<string, FileState>();
  for (const relativePath of await listWatchedPaths(workspace, exemptPrefixes)) {
    states.set(relativePath, await readFileState(path.join(workspace, relativePath)));
  }
  return { workspace, exemptPrefixes, states };
}

/**
 * The paths under `.snodo/` that differ from the snapshot: added, modified or deleted in the worktree, or
 * changed by commits between `startCommit` and `headCommit` (the worktree's HEAD now; when it is still
 * `startCommit` there are no commits to look into). Sorted.
 */
export async function findSnodoChanges(
  snapshot: SnodoDirectorySnapshot,
  startCommit: string,
  headCommit: string,
): Promise<string[]> {
  const { workspace } = snapshot;
  const changed = new Set<string>();
  const candidates = new Set([
    ...snapshot.states.keys(),
    ...(await listWatchedPaths(workspace, snapshot.exemptPrefixes)),
  ]);
  for (const relativePath of candidates) {
    const before = snapshot.states.get(relativePath) ?? { kind: 'absent' };
    const after = await readFileState(path.join(workspace, relativePath));
    if (!sameFileState(before, after)) changed.add(relativePath);
  }
  if (headCommit !== startCommit) {
    const { stdout } = await runGit(
      ['diff', '--name-only', '--no-renames', '-z', startCommit, headCommit, '--', SNODO_DIRECTORY],
      { cwd: workspace },
    );
    for (const relativePath of splitNul(stdout)) changed.add(relativePath);
  }
  return [...changed].sort();
}

/** Parent directories (relative) of every path the snapshot holds; those existed before the run. */
function directoriesBefore(snapshot: SnodoDirectorySnapshot): Set<string> {
  const directories = new Set<string>();
  for (const relativePath of snapshot.states.keys()) {
    for (
      let current = path.posix.dirname(relativePath);
      current !== '.';
      current = path.posix.dirname(current)
    ) {
      directories.add(current);
    }
  }
  return directories;
}

/** Removes the directories under `.snodo/` that removing the coder's added files left empty. */
async function removeEmptyDirectories(
  workspace: string,
  relativeDirectory: string,
  keep: ReadonlySet<string>,
) {
  for (
    let current = relativeDirectory;
    current.startsWith(`${SNODO_DIRECTORY}/`) && !keep.has(current);
    current = path.posix.dirname(current)
  ) {
    const absolute = path.join(workspace, current);
    const entries = await readdir(absolute).catch(() => undefined);
    if (entries === undefined || entries.length > 0) return;
    await rmdir(absolute);
  }
}

/**
 * Puts each of `paths` back as the snapshot recorded it: changed files get their old bytes and mode,
 * deleted ones come back, added ones are removed along with directories that held nothing else.
 */
export async function restoreSnodoDirectory(
  snapshot: SnodoDirectorySnapshot,
  paths: readonly string[],
): Promise<void> {
  const keep = directoriesBefore(snapshot);
  for (const relativePath of paths) {
    const before = snapshot.states.get(relativePath) ?? { kind: 'absent' };
    await writeFileState(path.join(snapshot.workspace, relativePath), before);
    if (before.kind === 'absent') {
      await removeEmptyDirectories(snapshot.workspace, path.posix.dirname(relativePath), keep);
    }
  }
}
