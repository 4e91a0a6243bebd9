import type { CoderV1Usage } from '@snodo/coder-sdk';
import { z } from 'zod';

// Claude Code's `--output-format stream-json --verbose` prints one JSON event per line: `system`/`init`
// first, then `assistant` and `user` messages, and a `result` event last. Only the fields snodo reads are
// declared; objects stay loose because every release adds fields.

const tokenCount = z.number().int().nonnegative();

/** Token counts in Anthropic's convention: `input_tokens` excludes cache reads and cache writes. */
export const claudeCodeUsageSchema = z.looseObject({
  input_tokens: tokenCount,
  output_tokens: tokenCount,
  cache_creation_input_tokens: tokenCount.nullish(),
  cache_read_input_tokens: tokenCount.nullish(),
});

/** `usage` of a `result` event: the main conversation's tokens. */
export type ClaudeCodeUsage = z.infer<typeof claudeCodeUsageSchema>;

/** One model's share in `modelUsage` (camel case here), including side requests to smaller models. */
export const claudeCodeModelUsageSchema = z.looseObject({
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  cacheReadInputTokens: tokenCount.nullish(),
  cacheCreationInputTokens: tokenCount.nullish(),
  costUSD: z.number().nonnegative().nullish(),
});

/** One entry of `modelUsage`. */
export type ClaudeCodeModelUsage = z.infer<typeof claudeCodeModelUsageSchema>;

/** The first event: the session, model, tools and permission mode Claude Code started with. */
export const claudeCodeInitEventSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  session_id: z.string(),
  model: z.string().optional(),
  cwd: z.string().optional(),
  tools: z.array(z.string()).optional(),
  permissionMode: z.string().optional(),
  apiKeySource: z.string().optional(),
  claude_code_version: z.string().optional(),
});

/** The `system`/`init` event. */
export type ClaudeCodeInitEvent = z.infer<typeof claudeCodeInitEventSchema>;

/**
 * The last event. `is_error` is the verdict (`subtype` may say `success` on an API error); `result` holds
 * the final text or the error message; `total_cost_usd` is Claude Code's own price of the whole session.
 */
export const claudeCodeResultEventSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean(),
  session_id: z.string(),
  result: z.string().optional(),
  num_turns: z.number().int().nonnegative().optional(),
  duration_ms: z.number().nonnegative().optional(),
  total_cost_usd: z.number().nonnegative().nullish(),
  usage: claudeCodeUsageSchema.optional(),
  modelUsage: z.record(z.string(), claudeCodeModelUsageSchema).optional(),
  api_error_status: z.number().int().nullish(),
  terminal_reason: z.string().optional(),
  permission_denials: z.array(z.unknown()).optional(),
});

/** The `result` event. */
export type ClaudeCodeResultEvent = z.infer<typeof claudeCodeResultEventSchema>;

/** `true` when `line` is Claude Code's `result` event (the end of the run). */
export function isClaudeCodeResultLine(line: string): boolean {
  return parseResultLine(line) !== undefined;
}

function parseResultLine(line: string): ClaudeCodeResultEvent | undefined {
  const trimmed = line.trim();
  // A cheap test first: most lines are large assistant or tool events.
  if (!trimmed.startsWith('{') || !trimmed.includes('"result"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const parsed = claudeCodeResultEventSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The last `result` event in `stdout` (stream-json lines, or the single object of `--output-format json`),
 * or `undefined` when there is none (the CLI died early, or the output was cut).
 */
export function findClaudeCodeResult(stdout: string): ClaudeCodeResultEvent | undefined {
  const lines = stdout.split('\n');
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const result = parseResultLine(lines[index] ?? '');
    if (result !== undefined) return result;
  }
  return undefined;
}

/**
 * The result's tokens in snodo's convention. `modelUsage` covers every model the session called (side
 * requests to a small model too) and so matches `total_cost_usd`; `usage` is the fallback. Cache writes
 * are ordinary input for snodo (they were not served from a cache) and also `cacheWriteTokens` (priced at
 * the cache-write rate when the CLI reports no cost), cache reads are `cachedInputTokens`. The model is the
 * one that produced the most output.
 */
export function claudeCodeUsage(result: ClaudeCodeResultEvent): CoderV1Usage | undefined {
  const models = Object.entries(result.modelUsage ?? {});
  let inputTokens = 0;
  let outputTokens = 0;
  let cachedInputTokens = 0;
  let cacheWriteTokens = 0;
  let model: string | undefined;
  if (models.length > 0) {
    let mostOutput = -1;
    for (const [name, entry] of models) {
      inputTokens += entry.inputTokens + (entry.cacheCreationInputTokens ?? 0);
      cacheWriteTokens += entry.cacheCreationInputTokens ?? 0;
      outputTokens += entry.outputTokens;
      cachedInputTokens += entry.cacheReadInputTokens ?? 0;
      if (entry.outputTokens > mostOutput) {
        mostOutput = entry.outputTokens;
        model = name;
      }
    }
  } else if (result.usage !== undefined) {
    inputTokens = result.usage.input_tokens + (result.usage.cache_creation_input_tokens ?? 0);
    cacheWriteTokens = result.usage.cache_creation_input_tokens ?? 0;
    outputTokens = result.usage.output_tokens;
    cachedInputTokens = result.usage.cache_read_input_tokens ?? 0;
  } else {
    return undefined;
  }
  return {
    inputTokens,
    outputTokens,
    cachedInputTokens,
    ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}),
    costUsd: result.total_cost_usd ?? null,
    source: 'reported',
    ...(model === undefined ? {} : { model }),
  };
}

/** Why a `result` event with `is_error` failed, in one line for `CODER_FAILED`. */
export function describeClaudeCodeError(result: ClaudeCodeResultEvent): string {
  const details = [
    result.subtype === 'success' ? undefined : result.subtype,
    result.terminal_reason,
    result.api_error_status == null ? undefined : `HTTP ${result.api_error_status}`,
  ].filter((part) => part !== undefined && part !== '');
  const text = (result.result ?? '').trim().split('\n')[0]?.slice(0, 500) ?? '';
  const message = text === '' ? 'no message' : text;
  return details.length === 0 ? message : `${message} (${details.join(', ')})`;
}
