import { CoderAbortedError, CoderTimeoutError } from '@snodo/coder-sdk';
import { LlmCallAbortedError, LlmCallFailedError, LlmError, type ResolvedModel } from '@snodo/llm';

/** The AI SDK error classes the mapping needs; passed in because `ai` is imported lazily. */
export interface AiErrorClasses {
  readonly APICallError: { isInstance(error: unknown): error is AiApiCallError };
  readonly RetryError: { isInstance(error: unknown): error is AiRetryError };
}

interface AiApiCallError extends Error {
  readonly statusCode?: number | undefined;
  readonly url: string;
  readonly isRetryable: boolean;
}

interface AiRetryError extends Error {
  readonly reason: string;
  readonly lastError: unknown;
  readonly errors: unknown[];
}

const REASON_LIMIT = 300;

/** Why the attempt's signal fired, as the loop knows it. */
export interface StopCause {
  readonly coderId: string;
  readonly displayName: string;
  /** The user's (or embedder's) signal. */
  readonly userSignal: AbortSignal;
  /** The wall-clock limit's signal. */
  readonly timeoutSignal: AbortSignal;
  readonly timeoutMs: number;
}

/**
 * Turns whatever a model call threw into a typed snodo error: a cancelled run → `CODER_ABORTED`, the
 * wall-clock limit → `CODER_TIMEOUT`, an HTTP or network failure (after the AI SDK's retries) →
 * `LLM_CALL_FAILED` with provider, model, status, the number of attempts and the provider's message.
 */
export function toCoderError(
  error: unknown,
  model: ResolvedModel,
  stop: StopCause,
  classes: AiErrorClasses,
): Error {
  if (stop.userSignal.aborted) {
    return new CoderAbortedError({ coderId: stop.coderId, displayName: stop.displayName, cause: error });
  }
  if (stop.timeoutSignal.aborted) {
    return new CoderTimeoutError({
      coderId: stop.coderId,
      displayName: stop.displayName,
      limit: 'wall-clock',
      timeoutMs: stop.timeoutMs,
      cause: error,
    });
  }
  if (LlmError.isInstance(error) && !LlmCallAbortedError.isInstance(error)) return error;
  const target = { provider: model.provider, modelId: model.modelId };
  const retried = classes.RetryError.isInstance(error) ? error : undefined;
  const last = retried === undefined ? error : retried.lastError;
  const attempts = retried === undefined ? '' : ` (${retried.errors.length} attempts)`;
  if (classes.APICallError.isInstance(last)) {
    return new LlmCallFailedError({
      ...target,
      statusCode: last.statusCode,
      url: last.url,
      retryable: last.isRetryable,
      reason: `${shorten(last.message)}${attempts}`,
      cause: error,
    });
  }
  return new LlmCallFailedError({
    ...target,
    reason: `${shorten(messageOf(last))}${attempts}`,
    cause: error,
  });
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return oneLine.length <= REASON_LIMIT ? oneLine : `${oneLine.slice(0, REASON_LIMIT)}…`;
}
