import { SnodoError } from '@snodo/coder-sdk';

const name = 'WorkspaceLayoutUnsupportedError';
const marker = 'snodo.error.WORKSPACE_LAYOUT_UNSUPPORTED';
const symbol = Symbol.for(marker);

/**
 * A sandbox was asked for a workspace that cannot be contained: a linked worktree made by an earlier
 * snodo (it shares the user's refs, config, hooks and objects, so nothing in it can be writable without
 * the user's `.git` being writable), or a directory that is not one of snodo's workspaces at all.
 */
export class WorkspaceLayoutUnsupportedError extends SnodoError {
  private readonly [symbol] = true;

  /** The workspace asked for. */
  readonly worktreePath: string;

  constructor(options: { worktreePath: string; reason: string; cause?: unknown }) {
    super('WORKSPACE_LAYOUT_UNSUPPORTED', {
      message:
        `snodo cannot sandbox ${options.worktreePath}: ${options.reason}. Abandon that job ` +
        '(`snodo task abandon <job>`) and run the task again so it gets a workspace of its own, or run it ' +
        'with `execution.sandbox: off`.',
      cause: options.cause,
    });
    this.name = name;
    this.worktreePath = options.worktreePath;
  }

  static override isInstance(value: unknown): value is WorkspaceLayoutUnsupportedError {
    return SnodoError.hasMarker(value, marker);
  }
}
