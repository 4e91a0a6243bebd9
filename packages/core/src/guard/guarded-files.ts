import {
  type FileState,
  listFilesRecursively,
  readFileState,
  sameFileState,
  writeFileState,
} from '@snodo/coder-sdk';

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

/**
 * The state of every watched path (a file's bytes and mode, a link's target, or nothing). The files are
 * small (git config, hooks, `info/exclude`, snodo's config and key), so their bytes are kept and a tampered
 * file is put back exactly.
 */
async function readAll(
  watched: readonly GuardedPath[],
): Promise<Map<string, { label: string; state: FileState }>> {
  const states = new Map<string, { label: string; state: FileState }>();
  for (const entry of watched) {
    const files = entry.directory ? await listFilesRecursively(entry.path) : [entry.path];
    for (const file of files) {
      if (!states.has(file)) states.set(file, { label: entry.label, state: await readFileState(file) });
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
    private readonly states: ReadonlyMap<string, { label: string; state: FileState }>,
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
      if (sameFileState(beforeState, afterState)) continue;
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
      await writeFileState(change.path, this.states.get(change.path)?.state ?? { kind: 'absent' });
    }
  }
}
