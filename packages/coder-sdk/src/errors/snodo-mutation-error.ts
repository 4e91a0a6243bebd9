import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.SNODO_MUTATION_BLOCKED';

/**
 * The coder added, changed or deleted something under `.snodo/`, where snodo keeps the rules the coder is
 * judged by. The change was undone, the branch is back at its start commit and nothing was committed; the
 * run halts as blocker `snodo_mutation_blocked`.
 */
export class SnodoMutationError extends SnodoError<'SNODO_MUTATION_BLOCKED'> {
  /** The coder's id. */
  readonly coderId: string;
  /** The paths under `.snodo/` that were touched, relative to the worktree, sorted. */
  readonly paths: readonly string[];

  constructor(options: { coderId: string; displayName: string; paths: readonly string[]; cause?: unknown }) {
    const paths = [...options.paths].sort();
    super('SNODO_MUTATION_BLOCKED', {
      message:
        `${options.displayName} changed snodo's own files (${paths.join(', ')}); a coder may not change the ` +
        'rules it is judged by. snodo restored .snodo/ and committed nothing. Change .snodo/ yourself in ' +
        'your checkout if the task needs it, then run again.',
      cause: options.cause,
    });
    this.name = 'SnodoMutationError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.paths = paths;
  }

  static override isInstance(value: unknown): value is SnodoMutationError {
    return SnodoError.hasMarker(value, marker);
  }
}
