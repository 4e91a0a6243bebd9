import { LlmCallFailedError } from './errors/llm-call-failed-error.js';
import { LlmError } from './errors/llm-error.js';
import { LlmCallAbortedError } from './errors.js';

/** The AI SDK error classes this mapping needs; passed in because `ai` is imported lazily. */
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
  readonly errors: readonly unknown[];
}

const REASON_LIMIT = 300;

/**
 * Turns whatever a model call threw into a typed `@snodo/llm` error, so a caller never sees a bare AI SDK
 * error and never mistakes a failure for an answer: an abort (the caller's signal fired) becomes
 * `LLM_CALL_ABORTED`, anything else `LLM_CALL_FAILED` with the provider, model, HTTP status and cause.
 */
export function toLlmCallError(
  error: unknown,
  target: { readonly provider: string; readonly modelId: string },
  abortSignal: AbortSignal | undefined,
  classes: AiErrorClasses,
): LlmError {
  if (LlmError.isInstance(error)) return error;
  const { provider, modelId } = target;
  const retried = classes.RetryError.isInstance(error) ? error : undefined;
  if (abortSignal?.aborted === true || retried?.reason === 'abort' || isAbortError(error)) {
    return new LlmCallAbortedError({ provider, modelId, cause: error });
  }
  const last = retried === undefined ? error : retried.lastError;
  // After the AI SDK's retries, say how many calls were made: "failed" alone hides that it was retried.
  const attempts = retried === undefined ? '' : ` (${retried.errors.length} attempts)`;
  if (classes.APICallError.isInstance(last)) {
    return new LlmCallFailedError({
      provider,
      modelId,
      statusCode: last.statusCode,
      url: last.url,
      retryable: last.isRetryable,
      reason: `${shorten(last.message)}${attempts}`,
      cause: error,
    });
  }
  return new LlmCallFailedError({
    provider,
    modelId,
    reason: `${shorten(messageOf(last))}${attempts}`,
    cause: error,
  });
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
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
