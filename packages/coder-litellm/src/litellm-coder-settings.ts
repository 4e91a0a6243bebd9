import { CoderConfigInvalidError } from '@snodo/coder-sdk';
import type { PriceOverrides, ProvidersSettings } from '@snodo/llm';
import { z } from 'zod';

/** The output token limit when none is configured: the Python original's `llm.coder.max_tokens` default. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 16_000;
/** The number of model calls one attempt may make when none is configured. */
export const DEFAULT_MAX_TOOL_TURNS = 10;
/** HTTP retries of one failed model call (the AI SDK's own default). */
export const DEFAULT_MAX_RETRIES = 2;

/**
 * Settings of the direct LLM coders, with the config's own snake_case names. They come from two places,
 * the second winning: the factory's argument (the CLI passes `coders.<id>` from config, and may add the
 * `providers` and `prices` sections) and each request's `coderConfig` (the mode's `coder_config` over
 * `coders.<id>`, plus whatever core forwards from `llm.coder`).
 *
 * ```yaml
 * # .snodo/protocol.yml, a mode
 * coder: litellm
 * coder_config:
 *   max_tokens: 32000
 *   max_tool_turns: 16
 * ```
 */
export interface LitellmCoderSettings {
  /**
   * The coder's default model (`coders.<id>.model`). Core resolves it into `request.model`; the coder
   * falls back to it (the request's `coderConfig.model` first) only when a request names no model.
   */
  readonly model?: string | undefined;
  /**
   * `providers.<name>` from config: keys, `api_key_env`, and `base_url`, which points a provider at a
   * LiteLLM proxy or any OpenAI-compatible endpoint (vLLM, Ollama, OpenRouter, a company gateway).
   */
  readonly providers?: ProvidersSettings | undefined;
  /** `prices.<model>` from config: US dollars per million tokens, over the committed catalog. */
  readonly prices?: PriceOverrides | undefined;
  /** Output token limit of one model call (`llm.coder.max_tokens`). Default 16000, capped at the model's own limit. */
  readonly max_tokens?: number | undefined;
  /** Model calls one attempt may make before it fails with `CODER_TURN_BUDGET_EXHAUSTED`. Default 10. */
  readonly max_tool_turns?: number | undefined;
  /** Sampling temperature (`llm.coder.temperature`); left to the provider when absent. */
  readonly temperature?: number | undefined;
  /** HTTP retries of a failed model call, with backoff. Default 2. */
  readonly max_retries?: number | undefined;
  /**
   * A `fetch` replacement for every model call (a recording proxy, a test that redirects a provider's
   * default endpoint). Programmatic only; config files cannot set it.
   */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Anything else in `coders.<id>` (`binary`, `timeout_seconds`, `env`…); ignored here. */
  readonly [key: string]: unknown;
}

/** The settings one attempt runs with, defaults applied. */
export interface EffectiveCoderSettings {
  /** The coder's own model, used when a request names none (an embedder calling `doRun` directly). */
  readonly model: string | undefined;
  readonly providers: ProvidersSettings;
  readonly prices: PriceOverrides | undefined;
  /** `undefined` until the model is known: then the default is capped at the model's output limit. */
  readonly maxOutputTokens: number | undefined;
  readonly maxToolTurns: number;
  readonly temperature: number | undefined;
  readonly maxRetries: number;
  readonly fetch: typeof globalThis.fetch | undefined;
}

const providerSchema = z.object({
  api_key: z.string().optional(),
  api_key_env: z.string().optional(),
  base_url: z.string().optional(),
});

const priceSchema = z.object({
  input: z.number().nonnegative().optional(),
  output: z.number().nonnegative().optional(),
  cache_read: z.number().nonnegative().optional(),
  cache_write: z.number().nonnegative().optional(),
});

/** The settings this coder reads; every other key of `coders.<id>` passes untouched. */
const settingsSchema = z.object({
  model: z.string().optional(),
  providers: z.record(z.string(), providerSchema).optional(),
  prices: z.record(z.string(), priceSchema).optional(),
  max_tokens: z.number().int().positive().optional(),
  max_tool_turns: z.number().int().min(1).max(200).optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_retries: z.number().int().min(0).max(10).optional(),
});

type ParsedSettings = z.infer<typeof settingsSchema>;

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Validates one source of settings; a wrong value names the setting and where to fix it. */
function parseSettings(coderId: string, value: Readonly<Record<string, unknown>>): ParsedSettings {
  const parsed = settingsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CoderConfigInvalidError({
    coderId,
    setting: issue === undefined || issue.path.length === 0 ? '(settings)' : issue.path.join('.'),
    problem: issue?.message ?? 'it has the wrong shape',
  });
}

/**
 * Merges the factory's settings with a request's `coderConfig` (the request wins, key by key; provider
 * entries merge per provider) and applies the defaults.
 *
 * @throws {CoderConfigInvalidError} for a value of the wrong type or range.
 */
export function resolveCoderSettings(
  coderId: string,
  factory: LitellmCoderSettings,
  coderConfig: Readonly<Record<string, unknown>>,
): EffectiveCoderSettings {
  const base = parseSettings(coderId, factory);
  const run = parseSettings(coderId, coderConfig);
  const providers: Record<string, z.infer<typeof providerSchema>> = { ...base.providers };
  for (const [name, entry] of Object.entries(run.providers ?? {})) {
    providers[name] = { ...providers[name], ...entry };
  }
  const prices =
    base.prices === undefined && run.prices === undefined ? undefined : { ...base.prices, ...run.prices };
  return {
    model: nonBlank(run.model) ?? nonBlank(base.model),
    providers,
    prices,
    maxOutputTokens: run.max_tokens ?? base.max_tokens,
    maxToolTurns: run.max_tool_turns ?? base.max_tool_turns ?? DEFAULT_MAX_TOOL_TURNS,
    temperature: run.temperature ?? base.temperature,
    maxRetries: run.max_retries ?? base.max_retries ?? DEFAULT_MAX_RETRIES,
    fetch: typeof factory.fetch === 'function' ? factory.fetch : undefined,
  };
}
