import { SnodoError } from '@snodo/coder-sdk';

const name = 'JobNotFoundError';
const marker = 'snodo.error.JOB_NOT_FOUND';
const symbol = Symbol.for(marker);

/** A job id that names no job in this repository (or is not shaped like one). */
export class JobNotFoundError extends SnodoError {
  private readonly [symbol] = true;

  readonly jobId: string;

  constructor(options: { jobId: string; repositoryRoot: string; cause?: unknown }) {
    super('JOB_NOT_FOUND', {
      message:
        `No job '${options.jobId}' in ${options.repositoryRoot}/.snodo/jobs. ` +
        "Run 'snodo task list' to see this repository's jobs.",
      cause: options.cause,
    });
    this.name = name;
    this.jobId = options.jobId;
  }

  static override isInstance(value: unknown): value is JobNotFoundError {
    return SnodoError.hasMarker(value, marker);
  }
}
