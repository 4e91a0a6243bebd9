import { LlmError } from './llm-error.js';

const marker = 'snodo.error.LLM_MODEL_STRING_INVALID';

/** The forms a model string may take, quoted in every message about a bad one. */
export const ACCEPTED_MODEL_STRING_FORMS =
  '`provider/model` (anthropic/claude-sonnet-4-5, openai/gpt-4o, google/gemini-2.5-pro, ' +
  'openrouter/anthropic/claude-sonnet-4.5, litellm/gpt-4o, mock/pass), or a bare name starting with ' +
  'gpt, o1, o3, o4 (OpenAI), claude (Anthropic) or gemini (Google)';

/**
 * A model string could not be read: empty, a bare name snodo cannot route, or a `mock/` variant that does
 * not exist. Thrown by `parseModelString` and `resolveModel`; the CLI reports it as bad input (exit 2).
 */
export class LlmModelStringInvalidError extends LlmError<'LLM_MODEL_STRING_INVALID'> {
  /** The model string as the user wrote it. */
  readonly modelString: string;

  constructor(options: { modelString: string; reason: string; cause?: unknown }) {
    super('LLM_MODEL_STRING_INVALID', {
      message:
        `Model "${options.modelString}" is not a model string snodo can route: ${options.reason}. ` +
        `Write it as ${ACCEPTED_MODEL_STRING_FORMS}, e.g. snodo run "…" -m anthropic/claude-sonnet-4-5.`,
      cause: options.cause,
    });
    this.name = 'LlmModelStringInvalidError';
    LlmError.mark(this, marker);
    this.modelString = options.modelString;
  }

  static override isInstance(value: unknown): value is LlmModelStringInvalidError {
    return LlmError.hasMarker(value, marker);
  }
}
