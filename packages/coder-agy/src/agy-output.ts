import type { CoderV1Usage } from '@snodo/coder-sdk';
import { z } from 'zod';

const count = z.number().nonnegative();

/** `usage` of the envelope (agy 1.1.8 and later). */
export const agyUsageSchema = z
  .object({
    /** Prompt tokens that were not read from the cache. */
    input_tokens: count.optional(),
    /** Answer tokens. */
    output_tokens: count.optional(),
    /** Thinking tokens, counted apart from the answer. */
    thinking_tokens: count.optional(),
    /** Prompt tokens read from the cache. */
    cache_read_tokens: count.optional(),
    total_tokens: count.optional(),
  })
  .loose();

/**
 * The JSON envelope `agy -p … --output-format=json` prints when the run ends. Field names follow the
 * documentation; the spellings seen in integrations (`conversationId`, `turns`, `duration_ms`) are
 * accepted too, and unknown fields are kept.
 */
export const agyEnvelopeSchema = z
  .object({
    /** `SUCCESS` or `ERROR`. */
    status: z.string(),
    /** The final answer text. */
    response: z.string().optional(),
    /** The conversation, for `--conversation <id>`. */
    conversation_id: z.string().optional(),
    conversationId: z.string().optional(),
    num_turns: count.optional(),
    turns: count.optional(),
    duration_seconds: count.optional(),
    duration_ms: count.optional(),
    usage: agyUsageSchema.optional(),
    /** Why a run failed: a message, or an object with one. */
    error: z.union([z.string(), z.object({ message: z.string().optional() }).loose()]).optional(),
  })
  .loose();

/** The envelope agy prints (see `agyEnvelopeSchema`). */
export type AgyEnvelope = z.infer<typeof agyEnvelopeSchema>;

/**
 * Finds the envelope in agy's stdout: the last JSON object that runs to the end of the output, starting on
 * a line of its own (agy may print it on one line or indented over many, after warnings).
 */
export function parseAgyEnvelope(stdout: string): AgyEnvelope | undefined {
  const lines = stdout.trimEnd().split('\n');
  for (let start = lines.length - 1; start >= 0; start -= 1) {
    if (!lines[start]?.trimStart().startsWith('{')) continue;
    let value: unknown;
    try {
      value = JSON.parse(lines.slice(start).join('\n'));
    } catch {
      continue;
    }
    const parsed = agyEnvelopeSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  }
  return undefined;
}

/** The conversation id, whichever spelling agy used. */
export function agyConversationId(envelope: AgyEnvelope): string | undefined {
  return envelope.conversation_id ?? envelope.conversationId;
}

/** The error text of a failed envelope. */
export function agyErrorMessage(envelope: AgyEnvelope): string | undefined {
  if (typeof envelope.error === 'string') return envelope.error;
  return envelope.error?.message ?? (envelope.status === 'SUCCESS' ? undefined : envelope.response);
}

/**
 * Normalises the envelope's usage: cache reads are already apart from input, thinking counts as output.
 * agy reports no cost.
 */
export function agyUsage(envelope: AgyEnvelope, model: string | undefined): CoderV1Usage | undefined {
  const usage = envelope.usage;
  if (usage === undefined) return undefined;
  return {
    inputTokens: Math.round(usage.input_tokens ?? 0),
    outputTokens: Math.round((usage.output_tokens ?? 0) + (usage.thinking_tokens ?? 0)),
    cachedInputTokens: Math.round(usage.cache_read_tokens ?? 0),
    costUsd: null,
    source: 'reported',
    ...(model === undefined ? {} : { model }),
  };
}
