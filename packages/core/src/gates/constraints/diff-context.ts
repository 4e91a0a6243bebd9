/**
 * How a file changed between the base commit and HEAD. Git's other statuses are folded in by
 * `loadDiffContext`: a type change counts as `M`, a copy as `A` (with `previousPath`).
 */
export type DiffFileStatus = 'A' | 'M' | 'D' | 'R';

/** One changed file of the diff `base..HEAD`. */
export interface DiffFile {
  /** Repository-relative path with `/` separators; for a rename, the new path. */
  readonly path: string;
  /** Added, modified, deleted or renamed. */
  readonly status: DiffFileStatus;
  /** For a rename (or a copy), the path it came from. */
  readonly previousPath?: string;
}

/**
 * The real change a coder made, which constraints and post-execute judges look at. Built by the caller
 * from `git diff base..HEAD` of the task branch (`loadDiffContext` does it), never from a list of files
 * the coder claims to have written: the Python original fed marker strings such as `git_commit` to path
 * predicates and scanned an empty `git diff HEAD` for secrets.
 */
export interface DiffContext {
  /** The commit the task branch started from. */
  readonly baseCommit: string;
  /** The commit being judged (the tip of the task branch). */
  readonly headCommit: string;
  /** Every changed path. */
  readonly files: readonly DiffFile[];
  /** The unified diff text of `base..HEAD` (`a/` and `b/` prefixes). */
  readonly patch: string;
  /** The content of `path` at `headCommit`, or `undefined` when it does not exist there. */
  readonly readFile: (path: string) => string | undefined;
  /** Whether `path` (a file or a directory) exists at `headCommit`. */
  readonly exists: (path: string) => boolean;
  /** The changed paths that are symbolic links at `headCommit`, with the target each one names. */
  readonly symlinks: readonly DiffSymlink[];
}

/** A symbolic link the change adds or modifies. */
export interface DiffSymlink {
  /** Repository-relative path of the link. */
  readonly path: string;
  /** What it points to, exactly as stored (relative or absolute). */
  readonly target: string;
}
