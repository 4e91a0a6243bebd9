import { git } from './git.js';

/** One worktree as `git worktree list --porcelain` describes it. */
export interface WorktreeEntry {
  /** Absolute path of the worktree. */
  readonly path: string;
  /** The commit checked out; absent for a bare repository entry. */
  readonly head?: string;
  /** The full ref checked out (`refs/heads/trunk`); absent when detached or bare. */
  readonly ref?: string;
  /** HEAD is a bare commit. */
  readonly detached: boolean;
  /** The repository itself is bare (this entry has no files). */
  readonly bare: boolean;
  /** The first entry: the main working tree (or the bare repository). */
  readonly isMain: boolean;
  /** `git worktree lock` was used; prune skips it and remove needs it unlocked. */
  readonly locked: boolean;
  /** The reason given to `git worktree lock --reason`, when any. */
  readonly lockReason?: string;
  /** git considers it prunable (its directory is gone). */
  readonly prunable: boolean;
  /** Why git considers it prunable. */
  readonly prunableReason?: string;
}

/** Every worktree of the repository containing `cwd`, the main one first. */
export async function listWorktrees(cwd: string): Promise<WorktreeEntry[]> {
  const result = await git(['worktree', 'list', '--porcelain', '-z'], { cwd, readOnly: true });
  return parseWorktreeList(result.stdout);
}

/** Parse `git worktree list --porcelain -z`: `\0`-terminated attribute lines, an empty one between records. */
export function parseWorktreeList(output: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let record: string[] = [];
  const flush = (): void => {
    if (record.length > 0) entries.push(toEntry(record, entries.length === 0));
    record = [];
  };
  for (const field of output.split('\0')) {
    if (field === '') flush();
    else record.push(field);
  }
  flush();
  return entries;
}

function toEntry(lines: readonly string[], isMain: boolean): WorktreeEntry {
  let worktreePath = '';
  let head: string | undefined;
  let ref: string | undefined;
  let detached = false;
  let bare = false;
  let locked = false;
  let lockReason: string | undefined;
  let prunable = false;
  let prunableReason: string | undefined;
  for (const line of lines) {
    const space = line.indexOf(' ');
    const key = space === -1 ? line : line.slice(0, space);
    const value = space === -1 ? undefined : line.slice(space + 1);
    if (key === 'worktree') worktreePath = value ?? '';
    else if (key === 'HEAD') head = value;
    else if (key === 'branch') ref = value;
    else if (key === 'detached') detached = true;
    else if (key === 'bare') bare = true;
    else if (key === 'locked') {
      locked = true;
      lockReason = value;
    } else if (key === 'prunable') {
      prunable = true;
      prunableReason = value;
    }
  }
  return {
    path: worktreePath,
    ...(head === undefined ? {} : { head }),
    ...(ref === undefined ? {} : { ref }),
    detached,
    bare,
    isMain,
    locked,
    ...(lockReason === undefined ? {} : { lockReason }),
    prunable,
    ...(prunableReason === undefined ? {} : { prunableReason }),
  };
}
