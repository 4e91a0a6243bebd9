import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.GIT_METADATA_TAMPERED';

/** One file of git metadata a coder changed. */
export interface GitMetadataChange {
  /** Absolute path of the file (`/repo/.git/hooks/post-commit`, `/repo/.git/config`). */
  readonly path: string;
  /** What happened to it during the run. */
  readonly change: 'added' | 'modified' | 'deleted';
}

/**
 * The coder changed git metadata that runs code on the host: a hook, the repository config (where
 * `core.hooksPath`, `core.fsmonitor` or a filter driver would be set), the worktree's config, or its
 * `HEAD` (a switched branch). snodo restored every file from its snapshot, committed nothing, and halts
 * the run.
 */
export class GitMetadataTamperedError extends SnodoError<'GIT_METADATA_TAMPERED'> {
  /** The coder's id. */
  readonly coderId: string;
  /** What changed, sorted by path. */
  readonly changes: readonly GitMetadataChange[];

  constructor(options: {
    coderId: string;
    displayName: string;
    changes: readonly GitMetadataChange[];
    cause?: unknown;
  }) {
    const changes = [...options.changes].sort((left, right) => left.path.localeCompare(right.path));
    const listed = changes.map((entry) => `${entry.change} ${entry.path}`).join(', ');
    super('GIT_METADATA_TAMPERED', {
      message:
        `${options.displayName} changed git hooks, config or the checked-out branch (${listed}); hooks and ` +
        'config run code the next time git runs. snodo restored them and committed nothing. Check the task and the repository for ' +
        'instructions that ask for this before running again.',
      cause: options.cause,
    });
    this.name = 'GitMetadataTamperedError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.changes = changes;
  }

  static override isInstance(value: unknown): value is GitMetadataTamperedError {
    return SnodoError.hasMarker(value, marker);
  }
}
