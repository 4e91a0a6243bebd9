import type { CoderAdapterV1, CoderRegistrationV1 } from '@snodo/coder-sdk';

/**
 * The package's own entry, imported by its name when a coder is loaded. NOTE: by name, not by a relative
 * path: Node resolves a package's own name through its `exports`, and a registry (or a trace of what
 * `snodo coders` loads) sees the coder package itself being loaded. A variable, so neither TypeScript nor
 * the bundler follows it: the entry stays a separate module that `/registration` does not pull in.
 */
const packageName: string = '@snodo/coder-litellm';

/** What every direct LLM coder tells a user: nothing to install, a key for the model's provider. */
export const DIRECT_CODER_INSTALL_HINT =
  "Built into snodo; nothing to install. It needs a key for its model's provider: snodo config add <provider> <key>.";

/**
 * The `litellm` coder as a registry knows it before loading it: the facts (the adapter reads them too, so
 * each exists once) and a lazy `load`. The coding model decides the provider. Imported alone from
 * `@snodo/coder-litellm/registration`, it loads none of the adapter's code (nor the AI SDK).
 */
export const litellmRegistration = {
  id: 'litellm',
  displayName: 'LLM coder',
  kind: 'engine-managed',
  usesJudgingModel: true,
  installHint: DIRECT_CODER_INSTALL_HINT,
  load: async (): Promise<CoderAdapterV1> =>
    ((await import(packageName)) as typeof import('./index.js')).createLitellmCoder(),
} as const satisfies CoderRegistrationV1;

/** The direct coder pinned to OpenAI; plain `gpt…`, `o1…`, `o3…`, `o4…` models route to it. */
export const openaiCoderRegistration = {
  id: 'openai',
  displayName: 'OpenAI coder',
  kind: 'engine-managed',
  usesJudgingModel: true,
  bareModelPrefixes: ['gpt', 'o1', 'o3', 'o4'],
  installHint: DIRECT_CODER_INSTALL_HINT,
  load: async (): Promise<CoderAdapterV1> =>
    ((await import(packageName)) as typeof import('./index.js')).createProviderPinnedCoder('openai'),
} as const satisfies CoderRegistrationV1;

/** The direct coder pinned to Anthropic; plain `claude…` models route to it. */
export const anthropicCoderRegistration = {
  id: 'anthropic',
  displayName: 'Anthropic coder',
  kind: 'engine-managed',
  usesJudgingModel: true,
  bareModelPrefixes: ['claude'],
  installHint: DIRECT_CODER_INSTALL_HINT,
  load: async (): Promise<CoderAdapterV1> =>
    ((await import(packageName)) as typeof import('./index.js')).createProviderPinnedCoder('anthropic'),
} as const satisfies CoderRegistrationV1;

/** The direct coder pinned to Google's Gemini; plain `gemini…` and `google/…` models route to it. */
export const geminiCoderRegistration = {
  id: 'gemini',
  displayName: 'Gemini coder',
  kind: 'engine-managed',
  usesJudgingModel: true,
  bareModelPrefixes: ['gemini', 'google/'],
  installHint: DIRECT_CODER_INSTALL_HINT,
  load: async (): Promise<CoderAdapterV1> =>
    ((await import(packageName)) as typeof import('./index.js')).createProviderPinnedCoder('gemini'),
} as const satisfies CoderRegistrationV1;

/** The four direct coders of this package, the default (`litellm`) first. */
export const litellmRegistrations = [
  litellmRegistration,
  openaiCoderRegistration,
  anthropicCoderRegistration,
  geminiCoderRegistration,
] as const;
