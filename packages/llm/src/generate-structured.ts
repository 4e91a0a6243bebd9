import type { ModelMessage } from 'ai';
import type { z } from 'zod';
import { type InvalidOutputDetails, LlmOutputInvalidError } from './errors.js';
import type { LlmSettings } from './llm-settings.js';
import { addTallies, type LlmUsage, priceTally, tallyUsage, type UsageTally } from './llm-usage.js';
import { buildPromptCacheRequest } from './prompt-cache.js';
import { type ResolvedModel, resolveModel } from './resolve-model.js';
import {
  callSettings,
  checkedObjectOutput,
  describeWarnings,
  emptyAnswerProblem,
  noObjectProblem,
  repairCorrection,
  toWireSchema,
} from './structured-call.js';
import { toLlmCallError } from './to-llm-call-error.js';

/** The call settings shared by `generateStructured` and `generateVerdict`. */
export interface StructuredCallOptions {
  /** A model string (`anthropic/claude-sonnet-4-5`, `mock/pass`) or a model from `resolveModel`. */
  readonly model: string | ResolvedModel;
  /** The system prompt. */
  readonly system?: string | undefined;
  /** The user prompt: the task, the diff, the criteria. */
  readonly prompt: string;
  /**
   * The leading part of `prompt` that other calls share byte for byte (the judges of one gate phase);
   * `prompt` must start with it. Anthropic models get a cache breakpoint after it (see `prompt-cache.ts`).
   */
  readonly sharedPrefix?: string | undefined;
  /** Names the shared part for providers that route cached prompts by a key (OpenAI's `promptCacheKey`). */
  readonly cacheKey?: string | undefined;
  /** Cancels the call; the call then throws `LLM_CALL_ABORTED`. */
  readonly abortSignal?: AbortSignal | undefined;
  /** Upper bound on output tokens (`llm.<role>.max_tokens`). */
  readonly maxOutputTokens?: number | undefined;
  /** Sampling temperature (`llm.<role>.temperature`); left to the provider when absent. */
  readonly temperature?: number | undefined;
  /** Retries of a failed HTTP call, with backoff (the AI SDK's default is 2). Not the repair attempt. */
  readonly maxRetries?: number | undefined;
  /** Extra HTTP headers (e.g. a session-affinity header for a proxy). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Config and environment for resolving a model string and pricing the usage. */
  readonly settings?: LlmSettings | undefined;
}

/** Options of `generateStructured`. */
export interface GenerateStructuredOptions<T> extends StructuredCallOptions {
  /** The zod schema the answer must satisfy. Sent to the model as JSON schema, checked with zod. */
  readonly schema: z.ZodType<T>;
  /** A name for the object, used by some providers as the schema or tool name. */
  readonly schemaName?: string | undefined;
  /** A description of the object, used by some providers as guidance. */
  readonly schemaDescription?: string | undefined;
}

/** What `generateStructured` returns. */
export interface GenerateStructuredResult<T> {
  /** The validated object. */
  readonly object: T;
  /** Tokens and cost of every call made, the repair attempt included. */
  readonly usage: LlmUsage;
  /** The canonical model string that answered. */
  readonly model: string;
  /** `true` when the first answer was invalid and the repair attempt produced this object. */
  readonly repaired: boolean;
  /** The answer as the model wrote it, kept as evidence. */
  readonly text: string;
  /** Warnings the AI SDK raised (an unsupported setting the provider ignored, …). */
  readonly warnings: readonly string[];
}

/**
 * Asks a model for an object matching `schema` (`generateText` with `Output.object`). When the answer does
 * not parse or validate, makes exactly one repair call that shows the model its answer and the problem and
 * asks for a corrected object. Used by the classifier; judges use `generateVerdict`.
 *
 * Fails closed: it returns a validated object or throws; it never invents an answer.
 *
 * @throws {LlmOutputInvalidError} when the repair answer is invalid too.
 * @throws {LlmCallFailedError} when a call fails (HTTP error, unreachable endpoint).
 * @throws {LlmCallAbortedError} when `abortSignal` fires.
 * @throws the errors of `resolveModel` when `model` is a string.
 */
export function generateStructured<T>(
  options: GenerateStructuredOptions<T>,
): Promise<GenerateStructuredResult<T>> {
  return runStructured(options, (details) => new LlmOutputInvalidError(details));
}

type Attempt<T> =
  | {
      readonly ok: true;
      readonly object: T;
      readonly text: string;
      readonly tally: UsageTally;
      readonly warnings: string[];
    }
  | {
      readonly ok: false;
      readonly text: string;
      readonly problem: string;
      readonly tally: UsageTally;
      readonly cause: unknown;
    };

/** `generateStructured` with the error to throw for a twice-invalid answer chosen by the caller. */
export async function runStructured<T>(
  options: GenerateStructuredOptions<T>,
  invalidError: (details: InvalidOutputDetails) => Error,
): Promise<GenerateStructuredResult<T>> {
  const settings = options.settings ?? {};
  const resolved =
    typeof options.model === 'string' ? await resolveModel(options.model, settings) : options.model;
  const ai = await import('ai');
  const wireSchema = toWireSchema(options.schema);
  const output = checkedObjectOutput(ai, options.schema, wireSchema, {
    name: options.schemaName,
    description: options.schemaDescription,
  });
  const cacheRequest = buildPromptCacheRequest(options, resolved.api);
  const call = {
    model: resolved.model,
    ...(cacheRequest.providerOptions === undefined ? {} : { providerOptions: cacheRequest.providerOptions }),
    output,
    ...(options.system === undefined ? {} : { system: options.system }),
    ...callSettings(options),
  };

  const attempt = async (request: { messages: ModelMessage[] }): Promise<Attempt<T>> => {
    try {
      const result = await ai.generateText({ ...call, ...request });
      const tally = tallyUsage(result.usage, result.response.headers);
      try {
        return {
          ok: true,
          object: result.output as T,
          text: result.text,
          tally,
          warnings: describeWarnings(result.warnings),
        };
      } catch (error) {
        if (!ai.NoOutputGeneratedError.isInstance(error)) throw error;
        return {
          ok: false,
          text: result.text,
          problem: emptyAnswerProblem(result.finishReason),
          tally,
          cause: error,
        };
      }
    } catch (error) {
      if (!ai.NoObjectGeneratedError.isInstance(error)) {
        throw toLlmCallError(error, resolved, options.abortSignal, ai);
      }
      const text = error.text ?? '';
      return {
        ok: false,
        text,
        problem: noObjectProblem(error),
        tally: tallyUsage(error.usage),
        cause: error,
      };
    }
  };

  const priced = (tally: UsageTally) => priceTally(tally, resolved, settings.prices);
  const first = await attempt({ messages: [cacheRequest.userMessage] });
  if (first.ok) {
    return {
      object: first.object,
      usage: priced(first.tally),
      model: resolved.modelString,
      repaired: false,
      text: first.text,
      warnings: first.warnings,
    };
  }

  const second = await attempt({ messages: repairMessages(cacheRequest.userMessage, first, wireSchema) });
  const tally = addTallies(first.tally, second.tally);
  if (second.ok) {
    return {
      object: second.object,
      usage: priced(tally),
      model: resolved.modelString,
      repaired: true,
      text: second.text,
      warnings: second.warnings,
    };
  }
  throw invalidError({
    model: resolved.modelString,
    text: second.text,
    problem: second.problem,
    usage: priced(tally),
    cause: second.cause,
  });
}

/** The follow-up conversation: the request (as first sent, so its cached prefix is read again), the invalid answer, and what to fix. */
function repairMessages(
  request: ModelMessage,
  failed: { readonly text: string; readonly problem: string },
  wireSchema: Record<string, unknown>,
): ModelMessage[] {
  const correction = repairCorrection(failed.problem, wireSchema);
  // NOTE: Anthropic rejects an assistant turn with empty content, so an empty answer is described, not replayed.
  return failed.text.trim() === ''
    ? [request, { role: 'user', content: `Your previous answer was empty. ${correction}` }]
    : [request, { role: 'assistant', content: failed.text }, { role: 'user', content: correction }];
}
