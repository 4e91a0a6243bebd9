import { SnodoError } from '@snodo/foundation';
import { describeProviderStatus } from '../provider/describe-provider-status.js';

const marker = 'snodo.error.CODER_PROVIDER_FAILED';

/**
 * The coder's model provider kept failing (HTTP 5xx, 429) and the CLI gave up retrying, or snodo stopped
 * it at a time limit while it was still retrying. Not the task's fault: splitting it or raising the limit
 * does not help, so the fix points at the provider (its base URL, the key, its status) instead. An
 * environment failure (exit 3), like a timeout.
 */
export class CoderProviderFailedError extends SnodoError<'CODER_PROVIDER_FAILED'> {
  /** The coder's id. */
  readonly coderId: string;
  /** The provider's last HTTP status, when the CLI reported one. */
  readonly status: number | undefined;
  /** How many retries the CLI reported before it gave up or was stopped. */
  readonly retries: number;
  /** The provider's (or the CLI's) last error text, one line. */
  readonly detail: string | undefined;
  /** Where the calls went: the base URL or provider, as the fix names it. */
  readonly endpoint: string;
  /** What to do about it, in one sentence (also the message's last part). */
  readonly fix: string;
  /** Set when snodo stopped the CLI at its time limit while it was retrying. */
  readonly stoppedAfterMs: number | undefined;
  /** The last part of the coder's stderr, secrets already redacted (noise removed). */
  readonly stderrTail: string;

  constructor(options: {
    coderId: string;
    displayName: string;
    status?: number;
    retries: number;
    detail?: string;
    endpoint: { readonly where: string; readonly setting?: string };
    stoppedAfterMs?: number;
    stderrTail?: string;
    cause?: unknown;
  }) {
    const status = describeProviderStatus(options.status);
    const retries = `${options.retries} ${options.retries === 1 ? 'retry' : 'retries'}`;
    const detail = options.detail === undefined ? '' : `; last error: ${oneLine(options.detail)}`;
    const stopped =
      options.stoppedAfterMs === undefined
        ? ''
        : ` snodo stopped it after ${Math.round(options.stoppedAfterMs / 1000)}s while it was still retrying.`;
    const setting = options.endpoint.setting === undefined ? '' : ` (set by ${options.endpoint.setting})`;
    const fix =
      options.status === 429
        ? `Check the quota and rate limits of ${options.endpoint.where}${setting}, or try again later.`
        : `Check that ${options.endpoint.where}${setting} is up and answers, or try again later.`;
    super('CODER_PROVIDER_FAILED', {
      message:
        `${options.displayName} failed: the provider kept failing: ${status} (${retries})${detail}.${stopped} ` +
        `${fix} The full output is in the job transcript (\`snodo logs <job>\`).`,
      cause: options.cause,
    });
    this.name = 'CoderProviderFailedError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.status = options.status;
    this.retries = options.retries;
    this.detail = options.detail;
    this.endpoint = options.endpoint.where;
    this.fix = fix;
    this.stoppedAfterMs = options.stoppedAfterMs;
    this.stderrTail = options.stderrTail ?? '';
  }

  static override isInstance(value: unknown): value is CoderProviderFailedError {
    return SnodoError.hasMarker(value, marker);
  }
}

function oneLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
