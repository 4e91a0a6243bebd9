import { LlmError } from './llm-error.js';

const marker = 'snodo.error.LLM_CALL_FAILED';

/** What the caller knows about a failed model call; every field lands on the error. */
export interface LlmCallFailedDetails {
  /** The provider name (`anthropic`, or a configured OpenAI-compatible name such as `litellm`). */
  readonly provider: string;
  /** The provider's model id (`claude-sonnet-4-5`). */
  readonly modelId: string;
  /** The HTTP status, when the provider answered at all. */
  readonly statusCode?: number | undefined;
  /** The request URL, when known; it never contains the API key. */
  readonly url?: string | undefined;
  /** Whether the AI SDK considered the failure retryable (it already retried `maxRetries` times). */
  readonly retryable?: boolean | undefined;
  /** A short reason (the provider's error message, or the network error). */
  readonly reason: string;
  /** The AI SDK error (`APICallError`, `RetryError`…). */
  readonly cause?: unknown;
}

/**
 * A model call failed at the provider or on the way there: an HTTP error, a refused connection, a rejected
 * key. A judge that hits this has no verdict: the caller must treat it as a gate error (fail closed, halt
 * `validator_error`), never as a `warn`.
 */
export class LlmCallFailedError extends LlmError<'LLM_CALL_FAILED'> {
  /** The provider name. */
  readonly provider: string;
  /** The provider's model id. */
  readonly modelId: string;
  /** The HTTP status, or `undefined` when no response arrived. */
  readonly statusCode: number | undefined;
  /** The request URL, when known. */
  readonly url: string | undefined;
  /** Whether the failure was retryable. */
  readonly retryable: boolean;

  constructor(details: LlmCallFailedDetails) {
    const model = `${details.provider}/${details.modelId}`;
    const status = details.statusCode === undefined ? '' : ` with HTTP ${details.statusCode}`;
    super('LLM_CALL_FAILED', {
      message: `The call to ${model} failed${status}: ${details.reason}. ${nextStep(details)}`,
      cause: details.cause,
    });
    this.name = 'LlmCallFailedError';
    LlmError.mark(this, marker);
    this.provider = details.provider;
    this.modelId = details.modelId;
    this.statusCode = details.statusCode;
    this.url = details.url;
    this.retryable = details.retryable ?? false;
  }

  static override isInstance(value: unknown): value is LlmCallFailedError {
    return LlmError.hasMarker(value, marker);
  }
}

/** What to do next, by the kind of failure. */
function nextStep(details: LlmCallFailedDetails): string {
  const status = details.statusCode;
  if (status === 401 || status === 403) {
    return `Check the key: snodo config add ${details.provider} <key>.`;
  }
  if (status === 404) {
    return `Check the model id (snodo models lists known ones) and providers.${details.provider}.base_url.`;
  }
  if (status === 429) return 'The provider is rate limiting; wait and run again.';
  if (status !== undefined && status >= 500) return 'The provider failed; run again later.';
  if (status === undefined) {
    const where = details.url === undefined ? 'the provider' : new URL(details.url).origin;
    return `Check that ${where} is reachable and providers.${details.provider}.base_url is right.`;
  }
  return 'Check the request settings (model, max tokens, temperature) in config.';
}
