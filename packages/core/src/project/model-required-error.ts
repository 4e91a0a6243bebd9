import { SnodoError } from '@snodo/foundation';
import { PROVIDER_EXAMPLES } from '@snodo/llm';

const marker = 'snodo.error.MODEL_REQUIRED';

/** One model role a run needs and nothing configures, with what needs it. */
export interface ModelNeed {
  /** `judging` (LLM validators and the classifier) or `coder` (an engine-managed coder that calls a model). */
  readonly role: 'judging' | 'coder';
  /** Who needs it: validator ids for `judging`, the coder's display name for `coder`. */
  readonly neededBy: readonly string[];
}

function describeNeed(need: ModelNeed): string {
  return need.role === 'judging'
    ? `no judging model is configured, and ${need.neededBy.length === 1 ? 'validator' : 'validators'} ${need.neededBy.join(', ')} ${need.neededBy.length === 1 ? 'needs' : 'need'} one`
    : `no coder model is configured, and ${need.neededBy.join(', ')} needs one`;
}

/**
 * A run needs a model that nothing configures: a judge without its own `model:` and no judging model, or an
 * LLM coder without a coder model. Refused before a job, a workspace or a branch exists (exit 2), with the
 * three ways out; `snodo run --dry-run`, `snodo coders` and `snodo doctor` print the same text as "not ready".
 */
export class ModelRequiredError extends SnodoError<'MODEL_REQUIRED'> {
  /** Every role that lacks a model. */
  readonly needs: readonly ModelNeed[];
  /** The lines a user follows: the reason, then one command per way out (the CLI prints them as the fix). */
  readonly quickSetup: string;

  constructor(options: { needs: readonly ModelNeed[]; cause?: unknown }) {
    const why = options.needs.map(describeNeed).join('; ');
    const summary = `Not ready: ${why}. Nothing was created.`;
    const quickSetup = [
      summary,
      '  Quick setup, one of:',
      `    snodo config add <provider>               store a provider key (${PROVIDER_EXAMPLES.providers.join(', ')}, …), then`,
      `    snodo config set model <provider/model>   choose the model, e.g. ${PROVIDER_EXAMPLES.model}`,
      '    snodo run "<task>" -m <provider/model>    or name the model for one run',
      '    snodo run "<task>" --mock                 or try snodo offline, end to end',
    ].join('\n');
    super('MODEL_REQUIRED', {
      message:
        `${summary} Store a provider key with \`snodo config add <provider>\` and choose a model with ` +
        '`snodo config set model <provider/model>` (or pass `-m <provider/model>`), or try it offline with `--mock`.',
      cause: options.cause,
    });
    this.name = 'ModelRequiredError';
    SnodoError.mark(this, marker);
    this.needs = options.needs;
    this.quickSetup = quickSetup;
  }

  static override isInstance(value: unknown): value is ModelRequiredError {
    return SnodoError.hasMarker(value, marker);
  }
}
