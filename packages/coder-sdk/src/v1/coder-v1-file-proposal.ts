/**
 * One file change proposed by an engine-managed coder. Core confines `path` to the worktree (relative, no
 * `..`, no absolute path, no symlink leading outside, nothing under `.snodo/` or `.git/`) before writing;
 * a refused path fails the run and nothing is written.
 */
export interface CoderV1FileProposal {
  /** Path relative to the worktree root, with `/` separators. */
  readonly path: string;
  /** `write` creates or replaces the file with `content`; `delete` removes it. */
  readonly action: 'write' | 'delete';
  /** The whole new content, UTF-8. Required for `write`, ignored for `delete`. */
  readonly content?: string;
}
