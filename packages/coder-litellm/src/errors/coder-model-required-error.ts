import { SnodoError } from '@snodo/coder-sdk';

const name = 'CoderModelRequiredError';
const marker = 'snodo.error.CODER_MODEL_REQUIRED';
const symbol = Symbol.for(marker);

/**
 * A direct LLM coder was asked to run without a coding model. Unlike a coding CLI it has no default model
 * of its own, so the run stops before any request is made.
 */
export class CoderModelRequiredError extends SnodoError<'CODER_MODEL_REQUIRED'> {
  private readonly [symbol] = true;

  /** The coder's id (`litellm`, `openai`…). */
  readonly coderId: string;

  constructor(options: { coderId: string; displayName: string; example: string }) {
    super('CODER_MODEL_REQUIRED', {
      message:
        `${options.displayName} needs a model and none is configured: pass -m provider/model or set ` +
        `llm.coder.model (for example \`snodo run -m ${options.example} …\` or ` +
        `\`snodo config set llm.coder.model ${options.example}\`).`,
    });
    this.name = name;
    this.coderId = options.coderId;
  }

  static override isInstance(value: unknown): value is CoderModelRequiredError {
    return SnodoError.hasMarker(value, marker);
  }
}
