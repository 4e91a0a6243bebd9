import { SnodoError } from '@snodo/coder-sdk';

const name = 'CoderModelProviderMismatchError';
const marker = 'snodo.error.CODER_MODEL_PROVIDER_MISMATCH';
const symbol = Symbol.for(marker);

/**
 * A coder pinned to one provider (`openai`, `anthropic`, `gemini`) was given a model another provider
 * serves. Pinned coders never reroute a model silently; the general `litellm` coder takes any provider.
 */
export class CoderModelProviderMismatchError extends SnodoError<'CODER_MODEL_PROVIDER_MISMATCH'> {
  private readonly [symbol] = true;

  /** The coder's id. */
  readonly coderId: string;
  /** The provider the coder is pinned to (`openai`, `anthropic`, `google`). */
  readonly expectedProvider: string;
  /** The model as given. */
  readonly model: string;

  constructor(options: {
    coderId: string;
    displayName: string;
    expectedProvider: string;
    model: string;
    actualProvider: string;
    example: string;
  }) {
    super('CODER_MODEL_PROVIDER_MISMATCH', {
      message:
        `${options.displayName} runs only ${options.expectedProvider} models, but the model "${options.model}" ` +
        `belongs to ${options.actualProvider}. Pass a ${options.expectedProvider} model ` +
        `(-m ${options.example}), or run the model with --coder litellm.`,
    });
    this.name = name;
    this.coderId = options.coderId;
    this.expectedProvider = options.expectedProvider;
    this.model = options.model;
  }

  static override isInstance(value: unknown): value is CoderModelProviderMismatchError {
    return SnodoError.hasMarker(value, marker);
  }
}
