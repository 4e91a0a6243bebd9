import type { CoderV1Usage } from '@snodo/coder-sdk';
import { z } from 'zod';

const count = z.number().nonnegative();

/** Longer unfinished stdout lines are dropped by `OpencodeRunAccumulator.pushText`. */
const longestLine = 8 * 1024 * 1024;

/** Token counts of one step (`part.tokens` of `step_finish`). */
export const opencodeStepTokensSchema = z
  .object({
    total: count.optional(),
    /** Prompt tokens neither read from nor written to the cache. */
    input: count,
    /** Answer tokens, reasoning excluded. */
    output: count,
    /** Reasoning tokens. */
    reasoning: count.optional(),
    cache: z.object({ read: count.optional(), write: count.optional() }).loose().optional(),
  })
  .loose();

const eventBase = { timestamp: z.number().optional(), sessionID: z.string() };

/** `step_start`: the model is asked again. */
export const opencodeStepStartEventSchema = z.object({ type: z.literal('step_start'), ...eventBase }).loose();

/** `text`: a finished piece of assistant text. */
export const opencodeTextEventSchema = z
  .object({ type: z.literal('text'), ...eventBase, part: z.object({ text: z.string() }).loose() })
  .loose();

/** `reasoning`: a finished piece of reasoning text (only with `--thinking`). */
export const opencodeReasoningEventSchema = z.object({ type: z.literal('reasoning'), ...eventBase }).loose();

/** `tool_use`: a tool call that completed or failed. */
export const opencodeToolUseEventSchema = z
  .object({ type: z.literal('tool_use'), ...eventBase, part: z.object({ tool: z.string() }).loose() })
  .loose();

/** `step_finish`: one model call ended; `reason` is `tool-calls` while the loop goes on. */
export const opencodeStepFinishEventSchema = z
  .object({
    type: z.literal('step_finish'),
    ...eventBase,
    part: z
      .object({ reason: z.string().optional(), tokens: opencodeStepTokensSchema, cost: count.optional() })
      .loose(),
  })
  .loose();

/** `error`: the session failed (the process then exits 1). */
export const opencodeErrorEventSchema = z
  .object({
    type: z.literal('error'),
    ...eventBase,
    error: z
      .object({
        name: z.string().optional(),
        data: z.object({ message: z.string().optional() }).loose().optional(),
      })
      .loose(),
  })
  .loose();

/** One line of `opencode run --format json`. */
export const opencodeRunEventSchema = z.discriminatedUnion('type', [
  opencodeStepStartEventSchema,
  opencodeTextEventSchema,
  opencodeReasoningEventSchema,
  opencodeToolUseEventSchema,
  opencodeStepFinishEventSchema,
  opencodeErrorEventSchema,
]);

/** An event `opencode run --format json` prints (see `opencodeRunEventSchema`). */
export type OpencodeRunEvent = z.infer<typeof opencodeRunEventSchema>;
/** The token counts of one `step_finish`. */
export type OpencodeStepTokens = z.infer<typeof opencodeStepTokensSchema>;

/** Parses one stdout line as an event; `undefined` for anything else. */
export function parseOpencodeRunLine(line: string): OpencodeRunEvent | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const parsed = opencodeRunEventSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** What snodo has read from OpenCode's events so far. */
export interface OpencodeRunSummary {
  /** The session id (`ses_…`) of the run. */
  readonly sessionId: string | undefined;
  /** Usage summed over every step, or `undefined` before the first `step_finish`. */
  readonly usage: CoderV1Usage | undefined;
  /** The message of the last `error` event. */
  readonly errorMessage: string | undefined;
  /** `true` once the last event seen ends the session: a final `step_finish` or an `error`. */
  readonly finished: boolean;
}

/**
 * Sums OpenCode's per-step usage as the events arrive. OpenCode reports each step's prompt tokens without
 * the cache reads and writes, and its answer tokens without reasoning; snodo counts cache writes as input,
 * cache reads as cached input and reasoning as output. Cost is OpenCode's own (from its model catalog); a
 * total of 0 means it had no price for the model, so it is reported as unknown (`null`) for core to price.
 */
export class OpencodeRunAccumulator {
  private sessionId: string | undefined;
  private steps = 0;
  private input = 0;
  private output = 0;
  private cached = 0;
  private cost = 0;
  private errorMessage: string | undefined;
  private finished = false;

  /** @param model The model snodo asked for, named in the usage so core can price it. */
  constructor(private readonly model?: string) {}

  private partial = '';

  /** Takes a chunk of stdout as it arrives; returns the events of the lines it completed. */
  pushText(text: string): OpencodeRunEvent[] {
    const lines = (this.partial + text).split('\n');
    const rest = lines.pop() ?? '';
    // A line this long is a tool's output, never a step_finish: dropping it keeps memory bounded.
    this.partial = rest.length > longestLine ? '' : rest;
    const events: OpencodeRunEvent[] = [];
    for (const line of lines) {
      const event = this.push(line);
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  /** Takes one stdout line; returns the event it held, if any. */
  push(line: string): OpencodeRunEvent | undefined {
    const event = parseOpencodeRunLine(line);
    if (event === undefined) return undefined;
    this.sessionId ??= event.sessionID;
    if (event.type === 'step_finish') {
      const { tokens, cost, reason } = event.part;
      this.steps += 1;
      this.input += tokens.input + (tokens.cache?.write ?? 0);
      this.output += tokens.output + (tokens.reasoning ?? 0);
      this.cached += tokens.cache?.read ?? 0;
      this.cost += cost ?? 0;
      this.finished = reason !== 'tool-calls';
    } else if (event.type === 'error') {
      this.errorMessage = event.error.data?.message ?? event.error.name ?? 'unknown error';
      this.finished = true;
    } else {
      this.finished = false;
    }
    return event;
  }

  /** What was read so far. */
  summary(): OpencodeRunSummary {
    return {
      sessionId: this.sessionId,
      errorMessage: this.errorMessage,
      finished: this.finished,
      usage:
        this.steps === 0
          ? undefined
          : {
              inputTokens: Math.round(this.input),
              outputTokens: Math.round(this.output),
              cachedInputTokens: Math.round(this.cached),
              costUsd: this.cost > 0 ? this.cost : null,
              source: 'reported',
              ...(this.model === undefined ? {} : { model: this.model }),
            },
    };
  }
}

/** `true` for a line that ends the session: a `step_finish` that is not a tool call, or an `error`. */
export function isOpencodeFinalLine(line: string): boolean {
  const event = parseOpencodeRunLine(line);
  return event?.type === 'error' || (event?.type === 'step_finish' && event.part.reason !== 'tool-calls');
}

/** Reads everything OpenCode printed at once (the SDK's stdout tail, or a fixture). */
export function summariseOpencodeOutput(stdout: string, model?: string): OpencodeRunSummary {
  const accumulator = new OpencodeRunAccumulator(model);
  for (const line of stdout.split('\n')) accumulator.push(line);
  return accumulator.summary();
}
