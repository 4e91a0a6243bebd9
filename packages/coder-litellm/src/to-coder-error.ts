import { CoderAbortedError, CoderTimeoutError } from '@snodo/coder-sdk';
import { type AiErrorClasses, type ResolvedModel, toLlmCallError } from '@snodo/llm';

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
  // Not our cancellation or our time limit: what the provider said, the way every model call reports it.
  return toLlmCallError(error, { provider: model.provider, modelId: model.modelId }, undefined, classes);
}
