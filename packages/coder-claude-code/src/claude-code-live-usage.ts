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

type AssistantUsage = z.infer<typeof claudeCodeAssistantEventSchema>['message'];

/**
 * Claude Code's usage so far while it runs, from the `assistant` events on stdout (the `result` event with
 * the real totals comes only at the end). Each model response counts once (by its id). Input and cache
 * numbers are final per response; the output count in these events is the streaming start value (1), so
 * the sum is marked `estimated` and its output tokens are a lower bound — the result replaces it. It lets
 * snodo check a job's budget after every model call instead of after the whole attempt.
 */
export class ClaudeCodeLiveUsage {
  readonly #lines = new LineSplitter();
  readonly #responses = new Map<string, AssistantUsage>();

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
      if (!parsed.success || this.#responses.has(parsed.data.message.id)) continue;
      this.#responses.set(parsed.data.message.id, parsed.data.message);
      changed = true;
    }
    return changed ? this.usage() : undefined;
  }

  /** The sum in snodo's convention (cache writes are input, cache reads are `cachedInputTokens`). */
  private usage(): CoderV1Usage {
    let inputTokens = 0;
    let outputTokens = 0;
    let cachedInputTokens = 0;
    let model: string | undefined;
    for (const response of this.#responses.values()) {
      inputTokens += response.usage.input_tokens + (response.usage.cache_creation_input_tokens ?? 0);
      outputTokens += response.usage.output_tokens;
      cachedInputTokens += response.usage.cache_read_input_tokens ?? 0;
      model = response.model ?? model;
    }
    return {
      inputTokens,
      outputTokens,
      cachedInputTokens,
      costUsd: null,
      source: 'estimated',
      ...(model === undefined ? {} : { model }),
    };
  }
}
