import { LlmError } from './llm-error.js';

const name = 'LlmCallAbortedError';
const marker = 'snodo.error.LLM_CALL_ABORTED';
const symbol = Symbol.for(marker);

/**
 * A model call stopped because the caller's `AbortSignal` fired (Ctrl-C, a job timeout). Kept apart from
 * `LLM_CALL_FAILED` so the CLI can exit 130 instead of reporting a provider failure.
 */
export class LlmCallAbortedError extends LlmError {
  /** The provider name. */
  readonly provider: string;
  /** The provider's model id. */
  readonly modelId: string;

  constructor(options: { provider: string; modelId: string; cause?: unknown }) {
    super('LLM_CALL_ABORTED', {
      message: `The call to ${options.provider}/${options.modelId} was aborted before it finished.`,
      cause: options.cause,
    });
    this.name = name;
    Object.defineProperty(this, symbol, { value: true });
    this.provider = options.provider;
    this.modelId = options.modelId;
  }

  static override isInstance(value: unknown): value is LlmCallAbortedError {
    return LlmError.hasMarker(value, marker);
  }
}
