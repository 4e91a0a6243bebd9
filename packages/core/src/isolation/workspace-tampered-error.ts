import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.WORKSPACE_TAMPERED';

/**
 * A task workspace's git directory no longer has the shape snodo created: `.git` replaced or turned into
 * a file or symlink, a `commondir` or `gitdir` file that would send git to another repository's config
 * (where a filter driver runs programs on snodo's next `git status`), the marker changed, or the
 * alternates pointing elsewhere. snodo runs no git command in it and the job must not land.
 */
export class WorkspaceTamperedError extends SnodoError<'WORKSPACE_TAMPERED'> {
  /** The workspace. */
  readonly worktreePath: string;
  /** Each problem found, in words. */
  readonly problems: readonly string[];

  constructor(options: { worktreePath: string; problems: readonly string[]; cause?: unknown }) {
    super('WORKSPACE_TAMPERED', {
      message:
        `The task workspace ${options.worktreePath} was tampered with: ${options.problems.join('; ')}. ` +
        'snodo ran no git command there and will not land it. Inspect it by hand, then drop the job with ' +
        '`snodo task abandon <job> --force`.',
      cause: options.cause,
    });
    this.name = 'WorkspaceTamperedError';
    SnodoError.mark(this, marker);
    this.worktreePath = options.worktreePath;
    this.problems = options.problems;
  }

  static override isInstance(value: unknown): value is WorkspaceTamperedError {
    return SnodoError.hasMarker(value, marker);
  }
}
