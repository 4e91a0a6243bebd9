import type { SnodoError } from '@snodo/foundation';
import {
  type ProviderEndpoint,
  type ProviderRetry,
  ProviderRetryLog,
} from '../provider/provider-retry-log.js';
import type { CoderV1Event } from '../v1/coder-v1-event.js';
import { LineSplitter } from './line-splitter.js';

/**
 * How a CLI announces that it retries a failing provider, declared on `SubprocessCoderAdapter.providerRetries`
 * (Claude Code's `api_retry` events on stdout, Gemini CLI's "Attempt 2 failed with status 500" on stderr).
 * The base then shows each retry as progress, keeps them in `run.retries`, and turns a CLI stopped at a
 * limit while retrying into `CODER_PROVIDER_FAILED` instead of `CODER_TIMEOUT`.
 */
export interface ProviderRetries<Run> {
  /** The stream the CLI prints its retries on. */
  readonly stream: 'stdout' | 'stderr';
  /** One line of that stream (without its line break) as a retry, or `undefined` for any other line. */
  parse(line: string, run: Run): ProviderRetry | undefined;
  /** Where the CLI's model calls went, and the setting that chose it, for the failure's fix. */
  endpoint(run: Run): ProviderEndpoint;
}

/** One attempt's watch over its retry stream: cuts it into lines and records each retry it finds. */
export class ProviderRetryWatch<Run> {
  /** The retries seen so far (`run.retries`). */
  readonly log = new ProviderRetryLog();
  readonly #lines = new LineSplitter();

  constructor(
    private readonly source: ProviderRetries<Run> | undefined,
    private readonly displayName: string,
  ) {}

  /** Feeds a chunk of output; emits a `coder-progress` event for each retry it completes. */
  push(stream: 'stdout' | 'stderr', text: string, run: Run, emit: (event: CoderV1Event) => void): void {
    if (this.source === undefined || stream !== this.source.stream) return;
    for (const line of this.#lines.push(text)) {
      const retry = this.source.parse(line, run);
      if (retry !== undefined)
        emit({ type: 'coder-progress', message: this.log.record(this.displayName, retry) });
    }
  }

  /** The provider failure behind a CLI stopped at a limit while it was retrying, if it was. */
  timeoutCause(
    run: Run,
    details: { readonly coderId: string; readonly stoppedAfterMs: number; readonly stderrTail: string },
  ): SnodoError | undefined {
    if (this.source === undefined) return undefined;
    return this.log.toError({
      coderId: details.coderId,
      displayName: this.displayName,
      endpoint: this.source.endpoint(run),
      stoppedAfterMs: details.stoppedAfterMs,
      stderrTail: details.stderrTail,
    });
  }
}
