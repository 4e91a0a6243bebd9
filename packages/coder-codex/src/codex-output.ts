import type { CoderV1Usage } from '@snodo/coder-sdk';
import { z } from 'zod';

// `codex exec --json` prints one JSON event per line: `thread.started`, `turn.started`, `item.started` /
// `item.updated` / `item.completed` for messages, commands and file changes, transient `error` events
// (reconnects), and `turn.completed` (with usage) or `turn.failed` last. Only the fields snodo reads are
// declared; objects stay loose because releases add fields.

const tokenCount = z.number().int().nonnegative();

/** The first event: the thread (session) id, which `codex exec resume <id>` takes. */
export const codexThreadStartedEventSchema = z.looseObject({
  type: z.literal('thread.started'),
  thread_id: z.string(),
});

/** The `thread.started` event. */
export type CodexThreadStartedEvent = z.infer<typeof codexThreadStartedEventSchema>;

/**
 * Token counts of a turn in OpenAI's convention: `input_tokens` includes the cached ones, and
 * `output_tokens` includes the reasoning ones.
 */
export const codexUsageSchema = z.looseObject({
  input_tokens: tokenCount,
  cached_input_tokens: tokenCount.nullish(),
  output_tokens: tokenCount,
  reasoning_output_tokens: tokenCount.nullish(),
  cache_write_input_tokens: tokenCount.nullish(),
});

/** `usage` of a `turn.completed` event. */
export type CodexUsage = z.infer<typeof codexUsageSchema>;

/** The last event of a successful run. */
export const codexTurnCompletedEventSchema = z.looseObject({
  type: z.literal('turn.completed'),
  usage: codexUsageSchema,
});

/** The `turn.completed` event. */
export type CodexTurnCompletedEvent = z.infer<typeof codexTurnCompletedEventSchema>;

/** The last event of a failed run (the model endpoint refused, the stream broke). */
export const codexTurnFailedEventSchema = z.looseObject({
  type: z.literal('turn.failed'),
  error: z.looseObject({ message: z.string() }),
});

/** The `turn.failed` event. */
export type CodexTurnFailedEvent = z.infer<typeof codexTurnFailedEventSchema>;

/** A problem Codex reports while running (`Reconnecting... 1/5 (…)`); not final by itself. */
export const codexErrorEventSchema = z.looseObject({
  type: z.literal('error'),
  message: z.string(),
});

/** The `error` event. */
export type CodexErrorEvent = z.infer<typeof codexErrorEventSchema>;

/** Progress of one item: `agent_message`, `reasoning`, `command_execution`, `file_change`, `todo_list`… */
export const codexItemEventSchema = z.looseObject({
  type: z.enum(['item.started', 'item.updated', 'item.completed']),
  item: z.looseObject({ id: z.string(), type: z.string() }),
});

/** An `item.*` event. */
export type CodexItemEvent = z.infer<typeof codexItemEventSchema>;

/** Every event snodo reads from `codex exec --json`. */
export const codexEventSchema = z.union([
  codexThreadStartedEventSchema,
  codexTurnCompletedEventSchema,
  codexTurnFailedEventSchema,
  codexErrorEventSchema,
  codexItemEventSchema,
]);

/** One event snodo reads. */
export type CodexEvent = z.infer<typeof codexEventSchema>;

/** What a run's JSON lines say. */
export interface CodexRunSummary {
  /** The thread id from `thread.started`. */
  readonly threadId: string | undefined;
  /** The tokens of every `turn.completed`, summed (`undefined` when there was none). */
  readonly usage: CodexUsage | undefined;
  /** Why the run failed: the `turn.failed` message, else the last `error` event's, if any. */
  readonly failure: string | undefined;
  /** `true` when a `turn.completed` or `turn.failed` was seen. */
  readonly finished: boolean;
}

function parseLine(line: string): CodexEvent | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const parsed = codexEventSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** `true` when `line` is Codex's last event (`turn.completed` or `turn.failed`). */
export function isCodexFinalLine(line: string): boolean {
  if (!line.includes('"turn.')) return false;
  const event = parseLine(line);
  return event?.type === 'turn.completed' || event?.type === 'turn.failed';
}

/** Reads the JSON lines in `stdout` (other lines are ignored). */
export function summarizeCodexOutput(stdout: string): CodexRunSummary {
  let threadId: string | undefined;
  let usage: CodexUsage | undefined;
  let turnFailure: string | undefined;
  let lastError: string | undefined;
  let finished = false;
  for (const line of stdout.split('\n')) {
    const event = parseLine(line);
    if (event === undefined) continue;
    if (event.type === 'thread.started') threadId = event.thread_id;
    else if (event.type === 'turn.completed') {
      finished = true;
      usage = addUsage(usage, event.usage);
    } else if (event.type === 'turn.failed') {
      finished = true;
      turnFailure = event.error.message;
    } else if (event.type === 'error') lastError = event.message;
  }
  return { threadId, usage, failure: turnFailure ?? lastError, finished };
}

function addUsage(total: CodexUsage | undefined, next: CodexUsage): CodexUsage {
  if (total === undefined) return next;
  return {
    input_tokens: total.input_tokens + next.input_tokens,
    cached_input_tokens: (total.cached_input_tokens ?? 0) + (next.cached_input_tokens ?? 0),
    output_tokens: total.output_tokens + next.output_tokens,
    reasoning_output_tokens: (total.reasoning_output_tokens ?? 0) + (next.reasoning_output_tokens ?? 0),
    cache_write_input_tokens: (total.cache_write_input_tokens ?? 0) + (next.cache_write_input_tokens ?? 0),
  };
}

/**
 * Codex's tokens in snodo's convention: cached tokens move out of `inputTokens` into
 * `cachedInputTokens`; output keeps its reasoning tokens. Codex reports no cost, so `costUsd` is `null`
 * and core prices the tokens from its catalog when it knows the model.
 */
export function codexUsage(usage: CodexUsage, model: string | undefined): CoderV1Usage {
  const cached = Math.min(usage.cached_input_tokens ?? 0, usage.input_tokens);
  return {
    inputTokens: usage.input_tokens - cached,
    outputTokens: usage.output_tokens,
    cachedInputTokens: cached,
    costUsd: null,
    source: 'reported',
    ...(model === undefined ? {} : { model }),
  };
}
