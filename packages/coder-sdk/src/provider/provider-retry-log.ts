import { CoderProviderFailedError } from '../errors/coder-provider-failed-error.js';
import { describeProviderStatus } from './describe-provider-status.js';

/** One retry of a failed model call, as a coding CLI reported it in its output. */
export interface ProviderRetry {
  /** The HTTP status the provider answered (500, 429), when the CLI says. */
  readonly status?: number;
  /** Which retry this is, counting from 1, when the CLI says. */
  readonly attempt?: number;
  /** How many retries the CLI allows in all, when the CLI says. */
  readonly maxRetries?: number;
  /** The CLI's own words for the error (`server_error`, the provider's message), one line. */
  readonly detail?: string;
}

/** Where the failing calls went, for the error's fix: a URL and the setting that chose it. */
export interface ProviderEndpoint {
  /** The base URL or a provider's name (`http://127.0.0.1:4000`, `Anthropic's API`). */
  readonly where: string;
  /** The setting that points the coder there (`coders.claude-code.base_url`), when one did. */
  readonly setting?: string;
}

/**
 * The progress note for one retry, as `snodo run` shows it while the CLI waits:
 * `Claude Code: API error 500, retry 3/10`, `Gemini CLI: rate limited (429), retrying`.
 */
export function describeProviderRetry(displayName: string, retry: ProviderRetry): string {
  const count =
    retry.attempt === undefined
      ? 'retrying'
      : `retry ${retry.attempt}${retry.maxRetries === undefined ? '' : `/${retry.maxRetries}`}`;
  return `${displayName}: ${describeProviderStatus(retry.status)}, ${count}`;
}

/**
 * The retries of failed model calls one attempt of a CLI reported, kept in the adapter's per-attempt
 * state (`prepareRun`'s `state`) by its `onOutput` hook. A CLI that retries a failing provider for
 * minutes looks, from outside, like a slow task; with this log the wait shows as progress and, when the
 * run then fails or is stopped, the error says the provider kept failing and points at the provider,
 * instead of "split the task".
 */
export class ProviderRetryLog {
  private readonly seen: ProviderRetry[] = [];

  /** Records one retry and returns its progress note (`describeProviderRetry`). */
  record(displayName: string, retry: ProviderRetry): string {
    this.seen.push(retry);
    return describeProviderRetry(displayName, retry);
  }

  /** How many retries were seen. */
  get count(): number {
    return this.seen.length;
  }

  /** The latest retry, or `undefined` when none was seen. */
  get last(): ProviderRetry | undefined {
    return this.seen.at(-1);
  }

  /**
   * `CODER_PROVIDER_FAILED` for this attempt, or `undefined` when no retry was seen (the failure is then
   * not the provider's, as far as the CLI said) or the last status is a client error (401, 403, 404: a
   * key or a model the provider refuses, which retrying never fixes). `detail` is the CLI's final word (its error result), which
   * wins over the last retry's; `stoppedAfterMs` is set when snodo stopped the CLI at a limit.
   */
  toError(options: {
    readonly coderId: string;
    readonly displayName: string;
    readonly endpoint: ProviderEndpoint;
    readonly detail?: string;
    readonly status?: number;
    readonly stoppedAfterMs?: number;
    readonly stderrTail?: string;
  }): CoderProviderFailedError | undefined {
    const last = this.last;
    if (last === undefined) return undefined;
    const status = options.status ?? last.status;
    // A refused key or an unknown model is no outage: the CLI's own error says it better.
    if (status !== undefined && isClientError(status)) return undefined;
    const detail = options.detail ?? last.detail;
    return new CoderProviderFailedError({
      coderId: options.coderId,
      displayName: options.displayName,
      status,
      retries: this.count,
      endpoint: options.endpoint,
      ...(detail === undefined ? {} : { detail }),
      ...(options.stoppedAfterMs === undefined ? {} : { stoppedAfterMs: options.stoppedAfterMs }),
      ...(options.stderrTail === undefined ? {} : { stderrTail: options.stderrTail }),
    });
  }
}

/** A 4xx other than a timeout (408), a conflict (409) or a rate limit (429). */
function isClientError(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429;
}
