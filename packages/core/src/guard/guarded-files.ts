import { chmod, lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * One watched path as it was: a file's bytes and mode, a link's target, a directory's presence, or nothing.
 * Files watched here are small (git config, hooks, `info/exclude`, snodo's config and key), so their bytes
 * are kept and a tampered file is put back exactly.
 */
type PathState =
  | { readonly kind: 'file'; readonly mode: number; readonly content: Buffer }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'other' }
  | { readonly kind: 'absent' };

/** A guarded file or directory tree, with the words a finding uses for it. */
export interface GuardedPath {
  /** Absolute path of a file, or of a directory whose every file is watched (hooks, `info/`). */
  readonly path: string;
  /** What it is, for the finding ("the repository's git config", "a git hook"). */
  readonly label: string;
  /** Watch every file under it, recursively. */
  readonly directory?: boolean;
}

/** A guarded path that changed. */
export interface GuardedFileChange {
  readonly path: string;
  readonly label: string;
  readonly change: 'added' | 'modified' | 'deleted';
}

async function readState(filePath: string): Promise<PathState> {
  try {
    const stats = await lstat(filePath);
    if (stats.isSymbolicLink()) return { kind: 'symlink', target: await readlink(filePath) };
    if (stats.isFile()) return { kind: 'file', mode: stats.mode & 0o777, content: await readFile(filePath) };
    return { kind: 'other' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
    throw error;
  }
}

function sameState(left: PathState, right: PathState): boolean {
  if (left.kind === 'file' && right.kind === 'file') {
    return left.mode === right.mode && left.content.equals(right.content);
  }
  if (left.kind === 'symlink' && right.kind === 'symlink') return left.target === right.target;
  return left.kind === right.kind;
}

async function filesUnder(directory: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const entryPath = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(entryPath)));
    else files.push(entryPath);
  }
  return files;
}

async function readAll(
  watched: readonly GuardedPath[],
): Promise<Map<string, { label: string; state: PathState }>> {
  const states = new Map<string, { label: string; state: PathState }>();
  for (const entry of watched) {
    const files = entry.directory ? await filesUnder(entry.path) : [entry.path];
    for (const file of files) {
      if (!states.has(file)) states.set(file, { label: entry.label, state: await readState(file) });
    }
  }
  return states;
}

/**
 * The state of a set of guarded files, taken before code the coder could have written runs, compared and
 * restored afterwards. Uses the filesystem only, never git: a planted hook or filter must get no chance to
 * run while it is being looked for.
 */
export class GuardedFiles {
  private constructor(
    private readonly watched: readonly GuardedPath[],
    private readonly states: ReadonlyMap<string, { label: string; state: PathState }>,
  ) {}

  static async take(watched: readonly GuardedPath[]): Promise<GuardedFiles> {
    return new GuardedFiles(watched, await readAll(watched));
  }

  /** What differs now from when the snapshot was taken, sorted by path. */
  async changes(): Promise<GuardedFileChange[]> {
    const current = await readAll(this.watched);
    const changes: GuardedFileChange[] = [];
    for (const filePath of [...new Set([...this.states.keys(), ...current.keys()])].sort()) {
      const before = this.states.get(filePath);
      const after = current.get(filePath);
      const beforeState = before?.state ?? { kind: 'absent' };
      const afterState = after?.state ?? { kind: 'absent' };
      if (sameState(beforeState, afterState)) continue;
      changes.push({
        path: filePath,
        label: before?.label ?? after?.label ?? 'a guarded file',
        change:
          beforeState.kind === 'absent' ? 'added' : afterState.kind === 'absent' ? 'deleted' : 'modified',
      });
    }
    return changes;
  }

  /** Puts each changed path back as it was (an added file is removed). */
  async restore(changes: readonly GuardedFileChange[]): Promise<void> {
    for (const change of changes) {
      const state = this.states.get(change.path)?.state ?? { kind: 'absent' };
      if (state.kind === 'other') continue;
      await rm(change.path, { recursive: true, force: true });
      if (state.kind === 'absent') continue;
      await mkdir(path.dirname(change.path), { recursive: true });
      if (state.kind === 'symlink') {
        await symlink(state.target, change.path);
        continue;
      }
      await writeFile(change.path, state.content, { mode: state.mode });
      // NOTE: the umask narrows the mode given to writeFile; chmod sets it exactly.
      await chmod(change.path, state.mode);
    }
  }
}
