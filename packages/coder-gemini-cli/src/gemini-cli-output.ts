import type { CoderV1Usage } from '@snodo/coder-sdk';
import { z } from 'zod';

const count = z.number().int().nonnegative();

/** Token counts of one model in the `result` event (`stats.models.<model>`). */
export const geminiCliModelStatsSchema = z
  .object({
    /** Every token of the model's requests: prompt, candidates, thoughts and tool-use prompts. */
    total_tokens: count.optional(),
    /** Prompt tokens, cached ones included. */
    input_tokens: count.optional(),
    /** Candidate (answer) tokens; thoughts are not in it. */
    output_tokens: count.optional(),
    /** Prompt tokens served from the cache. */
    cached: count.optional(),
    /** Prompt tokens not served from the cache (`input_tokens - cached`). */
    input: count.optional(),
  })
  .loose();

/** The `stats` of the `result` event: totals over every model, then per model. */
export const geminiCliStatsSchema = geminiCliModelStatsSchema.extend({
  duration_ms: count.optional(),
  tool_calls: count.optional(),
  models: z.record(z.string(), geminiCliModelStatsSchema).optional(),
});

/** `init`: the first event, naming the session and the model Gemini CLI resolved. */
export const geminiCliInitEventSchema = z
  .object({ type: z.literal('init'), session_id: z.string(), model: z.string().optional() })
  .loose();

/** `message`: user or assistant text; assistant text arrives in `delta` pieces. */
export const geminiCliMessageEventSchema = z
  .object({
    type: z.literal('message'),
    role: z.string(),
    content: z.string(),
    delta: z.boolean().optional(),
  })
  .loose();

/** `tool_use`: the model called a tool. */
export const geminiCliToolUseEventSchema = z
  .object({ type: z.literal('tool_use'), tool_name: z.string(), tool_id: z.string() })
  .loose();

/** `tool_result`: how that tool call ended (`success` or `error`). */
export const geminiCliToolResultEventSchema = z
  .object({ type: z.literal('tool_result'), tool_id: z.string(), status: z.string() })
  .loose();

/** `error`: a non-fatal problem reported during the run. */
export const geminiCliErrorEventSchema = z
  .object({ type: z.literal('error'), message: z.string().optional() })
  .loose();

/** `result`: the terminal event with the outcome and the token statistics. */
export const geminiCliResultEventSchema = z
  .object({
    type: z.literal('result'),
    status: z.string(),
    error: z.object({ type: z.string().optional(), message: z.string() }).loose().optional(),
    stats: geminiCliStatsSchema.optional(),
  })
  .loose();

/** One line of `gemini --output-format stream-json`. */
export const geminiCliStreamEventSchema = z.discriminatedUnion('type', [
  geminiCliInitEventSchema,
  geminiCliMessageEventSchema,
  geminiCliToolUseEventSchema,
  geminiCliToolResultEventSchema,
  geminiCliErrorEventSchema,
  geminiCliResultEventSchema,
]);

/** A stream-json event Gemini CLI prints (see `geminiCliStreamEventSchema`). */
export type GeminiCliStreamEvent = z.infer<typeof geminiCliStreamEventSchema>;
/** The terminal `result` event. */
export type GeminiCliResultEvent = z.infer<typeof geminiCliResultEventSchema>;
/** The token statistics of a `result` event. */
export type GeminiCliStats = z.infer<typeof geminiCliStatsSchema>;

/** What snodo reads from Gemini CLI's stream-json output. */
export interface GeminiCliOutputSummary {
  /** The session id from `init` (or `result`), for the record and for `--resume`. */
  readonly sessionId: string | undefined;
  /** Usage from the `result` event, normalised. */
  readonly usage: CoderV1Usage | undefined;
  /** The `result` event's status, when one was printed (`success`, `error`). */
  readonly status: string | undefined;
  /** The error message of a failed `result`, or of the last `error` event. */
  readonly errorMessage: string | undefined;
}

/** Parses one stdout line as a stream-json event; `undefined` for anything else (warnings, blank lines). */
export function parseGeminiCliStreamLine(line: string): GeminiCliStreamEvent | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const parsed = geminiCliStreamEventSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** `true` for the line that ends a run: the `result` event. */
export function isGeminiCliFinalLine(line: string): boolean {
  return parseGeminiCliStreamLine(line)?.type === 'result';
}

/**
 * Normalises the `result` statistics to snodo's usage. Gemini counts cached prompt tokens inside
 * `input_tokens` and gives the uncached part as `input`; snodo wants them apart. Stream-json drops thinking
 * tokens from `output_tokens` but keeps them in `total_tokens`, so whatever `total_tokens` holds beyond
 * prompt and candidates (thoughts, tool-use prompts) is counted as output. Gemini CLI reports no cost.
 */
export function geminiCliUsage(stats: GeminiCliStats): CoderV1Usage {
  const prompt = stats.input_tokens ?? 0;
  const cached = stats.cached ?? 0;
  const candidates = stats.output_tokens ?? 0;
  const beyond = Math.max(0, (stats.total_tokens ?? 0) - prompt - candidates);
  const models = Object.keys(stats.models ?? {});
  return {
    inputTokens: stats.input ?? Math.max(0, prompt - cached),
    outputTokens: candidates + beyond,
    cachedInputTokens: cached,
    costUsd: null,
    source: 'reported',
    ...(models.length === 1 && models[0] !== undefined ? { model: models[0] } : {}),
  };
}

/** Reads session id, usage, status and error from everything Gemini CLI printed on stdout. */
export function summariseGeminiCliOutput(stdout: string): GeminiCliOutputSummary {
  let sessionId: string | undefined;
  let result: GeminiCliResultEvent | undefined;
  let lastError: string | undefined;
  for (const line of stdout.split('\n')) {
    const event = parseGeminiCliStreamLine(line);
    if (event === undefined) continue;
    if (event.type === 'init') sessionId = event.session_id;
    else if (event.type === 'error' && event.message !== undefined) lastError = event.message;
    else if (event.type === 'result') result = event;
  }
  return {
    sessionId,
    usage: result?.stats === undefined ? undefined : geminiCliUsage(result.stats),
    status: result?.status,
    errorMessage: result?.error?.message ?? (result?.status === 'success' ? undefined : lastError),
  };
}
