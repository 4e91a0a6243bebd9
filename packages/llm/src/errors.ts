import { defineSnodoError, type SnodoErrorCodeOf } from '@snodo/foundation';
import type { JudgeTurnsExhaustedError } from './errors/judge-turns-exhausted-error.js';
import type { LlmCallFailedError } from './errors/llm-call-failed-error.js';
import type { LlmCredentialsMissingError } from './errors/llm-credentials-missing-error.js';
import { LlmError } from './errors/llm-error.js';
import type { LlmModelStringInvalidError } from './errors/llm-model-string-invalid-error.js';
import type { VerdictInvalidError } from './errors/verdict-invalid-error.js';
import type { LlmUsage } from './llm-usage.js';

/**
 * A model call stopped because the caller's `AbortSignal` fired (Ctrl-C, a job timeout). Kept apart from
 * `LLM_CALL_FAILED` so the CLI can exit 130 instead of reporting a provider failure.
 */
export const LlmCallAbortedError = defineSnodoError({
  name: 'LlmCallAbortedError',
  code: 'LLM_CALL_ABORTED',
  base: LlmError,
  message: (options: { provider: string; modelId: string }) =>
    `The call to ${options.provider}/${options.modelId} was aborted before it finished.`,
});
export type LlmCallAbortedError = InstanceType<typeof LlmCallAbortedError>;

/** What `generateStructured` and `generateVerdict` know when a model's answer failed validation twice. */
export interface InvalidOutputDetails {
  /** The canonical model string (`anthropic/claude-sonnet-4-5`). */
  readonly model: string;
  /** The last answer the model gave, as text (empty when it gave none). */
  readonly text: string;
  /** Why the last answer was rejected (a JSON parse error or the schema issues). */
  readonly problem: string;
  /** Tokens and cost of both attempts: the calls happened and cost money even though they failed. */
  readonly usage: LlmUsage;
  /** The AI SDK error of the last attempt. */
  readonly cause?: unknown;
}

/**
 * A model answered, but not with an object matching the requested schema, even after the one repair
 * attempt. Thrown by `generateStructured` (the classifier's path); `generateVerdict` throws
 * `VerdictInvalidError` instead. Either way the caller has no answer and must fail closed.
 */
export const LlmOutputInvalidError = defineSnodoError({
  name: 'LlmOutputInvalidError',
  code: 'LLM_OUTPUT_INVALID',
  base: LlmError,
  message: (details: InvalidOutputDetails) =>
    `${details.model} did not answer with a valid object, even after one repair attempt: ` +
    `${details.problem}. Use a model that supports structured output (set llm.classifier.model), ` +
    'or raise max_tokens if the answer was cut off.',
});
export type LlmOutputInvalidError = InstanceType<typeof LlmOutputInvalidError>;

/**
 * A model string names a provider that is not built in, has no `base_url` in config, and whose AI SDK
 * package (`@ai-sdk/<name>`) cannot be imported. The message says how to install the package, and how to
 * reach the provider as an OpenAI-compatible endpoint instead.
 */
export const LlmProviderNotInstalledError = defineSnodoError({
  name: 'LlmProviderNotInstalledError',
  code: 'LLM_PROVIDER_NOT_INSTALLED',
  base: LlmError,
  message: ({ provider, packageName }: { provider: string; packageName: string }) =>
    `Provider "${provider}" needs the package ${packageName}, which is not installed; ` +
    `install it: pnpm add ${packageName} (or npm i ${packageName}). ` +
    `If "${provider}" is an OpenAI-compatible endpoint (a LiteLLM proxy, vLLM, Ollama…), set ` +
    `providers.${provider}.base_url in snodo's config instead.`,
});
export type LlmProviderNotInstalledError = InstanceType<typeof LlmProviderNotInstalledError>;

/**
 * Every error code `@snodo/llm` throws, read off the error classes themselves: renaming a code changes
 * this union, and the CLI's exit map stops compiling until the new code is mapped.
 */
export type LlmErrorCode = SnodoErrorCodeOf<
  | typeof JudgeTurnsExhaustedError
  | typeof LlmCallAbortedError
  | typeof LlmCallFailedError
  | typeof LlmCredentialsMissingError
  | typeof LlmModelStringInvalidError
  | typeof LlmOutputInvalidError
  | typeof LlmProviderNotInstalledError
  | typeof VerdictInvalidError
>;
