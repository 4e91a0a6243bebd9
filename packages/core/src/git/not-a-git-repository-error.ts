import { SnodoError } from '@snodo/coder-sdk';

const name = 'NotAGitRepositoryError';
const marker = 'snodo.error.NOT_A_GIT_REPOSITORY';
const symbol = Symbol.for(marker);

/**
 * snodo was pointed at a directory that is not inside a git working tree. Isolation, diffs and landing all
 * need git, so the run stops before anything happens.
 */
export class NotAGitRepositoryError extends SnodoError {
  private readonly [symbol] = true;

  /** The directory that was checked. */
  readonly directory: string;

  constructor(options: { directory: string; cause?: unknown }) {
    super('NOT_A_GIT_REPOSITORY', {
      message:
        `${options.directory} is not inside a git working tree. ` +
        'Run snodo from your repository (or `git init` one first).',
      cause: options.cause,
    });
    this.name = name;
    this.directory = options.directory;
  }

  static override isInstance(value: unknown): value is NotAGitRepositoryError {
    return SnodoError.hasMarker(value, marker);
  }
}
