import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.WORKTREE_DIRTY';

/** How many changed paths the message lists before "and N more". */
const listedPaths = 10;

/**
 * A working tree has uncommitted changes where snodo needs a clean one: the current checkout under
 * `--no-isolation` (the agent's commit would sweep the user's edits in), or a task worktree that
 * abandon/prune would delete. Lists the paths and what to type next.
 */
export class WorktreeDirtyError extends SnodoError<'WORKTREE_DIRTY'> {
  /** The working tree that is dirty. */
  readonly worktreePath: string;
  /** Every changed path (staged, unstaged, untracked). */
  readonly changedPaths: readonly string[];

  constructor(options: {
    worktreePath: string;
    changedPaths: readonly string[];
    /** Why a clean tree was needed: running without isolation, or removing a task worktree. */
    purpose: 'no-isolation' | 'remove' | 'land';
    cause?: unknown;
  }) {
    const shown = options.changedPaths.slice(0, listedPaths).join(', ');
    const more =
      options.changedPaths.length > listedPaths
        ? ` and ${options.changedPaths.length - listedPaths} more`
        : '';
    const next =
      options.purpose === 'no-isolation'
        ? 'Commit or stash them first, or drop --no-isolation so the task runs in its own worktree.'
        : options.purpose === 'remove'
          ? 'Inspect them there (`git -C <path> status`), commit what you want to keep, or pass --force to discard them.'
          : 'Commit them on the task branch (or discard them) before landing, so nothing is silently left behind.';
    super('WORKTREE_DIRTY', {
      message: `${options.worktreePath} has uncommitted changes: ${shown}${more}. ${next}`,
      cause: options.cause,
    });
    this.name = 'WorktreeDirtyError';
    SnodoError.mark(this, marker);
    this.worktreePath = options.worktreePath;
    this.changedPaths = options.changedPaths;
  }

  static override isInstance(value: unknown): value is WorktreeDirtyError {
    return SnodoError.hasMarker(value, marker);
  }
}
