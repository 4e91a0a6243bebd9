import { SnodoError } from './snodo-error.js';

const name = 'WorktreeNotCleanError';
const marker = 'snodo.error.WORKTREE_NOT_CLEAN';
const symbol = Symbol.for(marker);

/**
 * After the adapter committed, `git status` in the worktree still showed changes (a process the coder left
 * behind kept writing, or a submodule changed). The attempt is not trusted: the commit would not be the
 * whole change.
 */
export class WorktreeNotCleanError extends SnodoError {
  private readonly [symbol] = true;

  /** The worktree. */
  readonly workspace: string;
  /** The `git status --porcelain` lines that remained. */
  readonly statusLines: readonly string[];

  constructor(options: { workspace: string; statusLines: readonly string[]; cause?: unknown }) {
    super('WORKTREE_NOT_CLEAN', {
      message:
        `The worktree ${options.workspace} still has changes after snodo committed ` +
        `(${options.statusLines.slice(0, 10).join('; ')}). Inspect it with \`git -C ${options.workspace} status\`; ` +
        'a process started by the coder may still be writing.',
      cause: options.cause,
    });
    this.name = name;
    this.workspace = options.workspace;
    this.statusLines = [...options.statusLines];
  }

  static override isInstance(value: unknown): value is WorktreeNotCleanError {
    return SnodoError.hasMarker(value, marker);
  }
}
