import { SnodoError } from '@snodo/coder-sdk';

const name = 'JobActionRefusedError';
const marker = 'snodo.error.JOB_ACTION_REFUSED';
const symbol = Symbol.for(marker);

/**
 * A `snodo task …` action that does not apply to the job as it stands: approving a blocker (blockers cannot
 * be approved away), merging a running job, abandoning a job that is still running.
 */
export class JobActionRefusedError extends SnodoError {
  private readonly [symbol] = true;

  readonly jobId: string;
  readonly action: string;

  constructor(options: { jobId: string; action: string; reason: string; hint?: string }) {
    super('JOB_ACTION_REFUSED', {
      message: `Cannot ${options.action} job ${options.jobId}: ${options.reason}.${options.hint ? ` ${options.hint}` : ''}`,
    });
    this.name = name;
    this.jobId = options.jobId;
    this.action = options.action;
  }

  static override isInstance(value: unknown): value is JobActionRefusedError {
    return SnodoError.hasMarker(value, marker);
  }
}
