import { type CoderV1Usage, LineSplitter } from '@snodo/coder-sdk';
import { z } from 'zod';
import { claudeCodeUsageSchema } from './claude-code-output.js';

/**
 * An `assistant` event of stream-json: one per content block of a model response, each carrying the
 * response's id, model and `usage` (the same numbers repeated for every block of one response).
 */
const claudeCodeAssistantEventSchema = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({
    id: z.string(),
    model: z.string().optional(),
    usage: claudeCodeUsageSchema,
  }),
});

/**
 * Claude Code's usage so far while it runs, from the `assistant` events on stdout (the `result` event with
 * the real totals comes only at the end). Each model response counts once (by its id) and is added to
 * running totals as it arrives, so a long session costs the same per event as a short one. Input and cache
 * numbers are final per response; the output count in these events is the streaming start value (1), so
 * the sum is marked `estimated` and its output tokens are a lower bound — the result replaces it. It lets
 * snodo check a job's budget after every model call instead of after the whole attempt.
 */
export class ClaudeCodeLiveUsage {
  readonly #lines = new LineSplitter();
  readonly #seen = new Set<string>();
  #inputTokens = 0;
  #outputTokens = 0;
  #cachedInputTokens = 0;
  #cacheWriteTokens = 0;
  #model: string | undefined;

  /** Reads a stdout chunk; returns the new usage so far when a response not seen before arrived. */
  push(text: string): CoderV1Usage | undefined {
    let changed = false;
    for (const line of this.#lines.push(text)) {
      // A cheap test first: tool results and text deltas are most of the stream.
      if (!line.includes('"assistant"') || !line.includes('"usage"')) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      const parsed = claudeCodeAssistantEventSchema.safeParse(value);
      if (!parsed.success || this.#seen.has(parsed.data.message.id)) continue;
      this.#seen.add(parsed.data.message.id);
      this.#add(parsed.data.message);
      changed = true;
    }
    return changed ? this.#usage() : undefined;
  }

  /**
   * Adds one response in snodo's convention: cache writes are input (they were not served from a cache)
   * and are also counted as `cacheWriteTokens`, so they are priced at the cache-write rate; cache reads are
   * `cachedInputTokens`.
   */
  #add(message: z.infer<typeof claudeCodeAssistantEventSchema>['message']): void {
    const cacheWrites = message.usage.cache_creation_input_tokens ?? 0;
    this.#inputTokens += message.usage.input_tokens + cacheWrites;
    this.#outputTokens += message.usage.output_tokens;
    this.#cachedInputTokens += message.usage.cache_read_input_tokens ?? 0;
    this.#cacheWriteTokens += cacheWrites;
    this.#model = message.model ?? this.#model;
  }

  #usage(): CoderV1Usage {
    return {
      inputTokens: this.#inputTokens,
      outputTokens: this.#outputTokens,
      cachedInputTokens: this.#cachedInputTokens,
      ...(this.#cacheWriteTokens > 0 ? { cacheWriteTokens: this.#cacheWriteTokens } : {}),
      costUsd: null,
      source: 'estimated',
      ...(this.#model === undefined ? {} : { model: this.#model }),
    };
  }
}
