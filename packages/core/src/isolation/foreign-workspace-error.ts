import { SnodoError } from '@snodo/coder-sdk';

const name = 'ForeignWorkspaceError';
const marker = 'snodo.error.WORKSPACE_FOREIGN';
const symbol = Symbol.for(marker);

/**
 * A removal was asked for a worktree or branch snodo did not create (no `snodo/` branch prefix, a path
 * outside snodo's worktrees directory, or a lock someone else placed). snodo never touches those, even
 * with `--force`.
 */
export class ForeignWorkspaceError extends SnodoError {
  private readonly [symbol] = true;

  /** The worktree path that was asked for. */
  readonly worktreePath: string;
  /** The branch that was asked for. */
  readonly branch: string;

  constructor(options: { worktreePath: string; branch: string; reason: string; cause?: unknown }) {
    super('WORKSPACE_FOREIGN', {
      message:
        `snodo will not remove ${options.worktreePath} (branch ${options.branch}): ${options.reason}. ` +
        'snodo only removes worktrees it created; use `git worktree remove` yourself if you mean it.',
      cause: options.cause,
    });
    this.name = name;
    this.worktreePath = options.worktreePath;
    this.branch = options.branch;
  }

  static override isInstance(value: unknown): value is ForeignWorkspaceError {
    return SnodoError.hasMarker(value, marker);
  }
}
