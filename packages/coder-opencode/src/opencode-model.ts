import { CoderConfigInvalidError } from '@snodo/coder-sdk';

/** A model as OpenCode's prompt body names it. */
export interface OpencodeModel {
  /** The provider id in OpenCode's config (`anthropic`, or a custom provider's key). */
  readonly providerID: string;
  /** The model id within that provider; may itself contain slashes (`openrouter/meta-llama/llama-3`). */
  readonly modelID: string;
}

/**
 * Reads `provider/model` into OpenCode's `{ providerID, modelID }`: the provider is everything before the
 * first slash, the model everything after it. `undefined` stays `undefined` (the server's default model).
 * A model without a provider is `CODER_CONFIG_INVALID`: OpenCode cannot guess the provider.
 */
export function parseOpencodeModel(coderId: string, model: string | undefined): OpencodeModel | undefined {
  if (model === undefined) return undefined;
  const slash = model.indexOf('/');
  const providerID = slash < 0 ? '' : model.slice(0, slash).trim();
  const modelID = slash < 0 ? '' : model.slice(slash + 1).trim();
  if (providerID === '' || modelID === '') {
    throw new CoderConfigInvalidError({
      coderId,
      setting: 'model',
      problem:
        `"${model}" does not name a provider; OpenCode models are provider/model ` +
        `(run with -m ${coderId}/anthropic/claude-sonnet-4-5, or set coders.${coderId}.model)`,
    });
  }
  return { providerID, modelID };
}

/** `provider/model`, the way OpenCode and snodo's price catalog spell it. */
export function formatOpencodeModel(model: OpencodeModel): string {
  return `${model.providerID}/${model.modelID}`;
}
