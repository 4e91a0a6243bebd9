import { z } from 'zod';
import { FakeLlmScriptError } from './fake-llm-script-error.js';

/** Token counts for one answer; any field left out takes the server's default. */
const usageSchema = z
  .object({
    /** Every prompt token, cached ones included (OpenAI and Gemini count this way). */
    input: z.number().int().nonnegative().optional(),
    /** Generated tokens. */
    output: z.number().int().nonnegative().optional(),
    /** Prompt tokens read from the provider's cache (part of `input`). */
    cached: z.number().int().nonnegative().optional(),
    /** Prompt tokens written to the cache (Anthropic `cache_creation_input_tokens`; part of `input`). */
    cacheWrite: z.number().int().nonnegative().optional(),
  })
  .strict();

/** Fields every turn may carry. */
const commonFields = {
  /** Wait this long before answering (the turn is taken from the queue on arrival). */
  delayMs: z.number().int().nonnegative().optional(),
  /** Usage reported for this answer. */
  usage: usageSchema.optional(),
};

const fileSchema = z.object({ path: z.string().min(1), content: z.string() }).strict();

const toolCallSchema = z
  .object({
    name: z.string().min(1),
    /** JSON arguments for a function tool, or the raw text for a custom (freeform) tool. */
    input: z.union([z.record(z.string(), z.unknown()), z.string()]),
  })
  .strict();

const writeOptions = {
  /** Assistant text sent before the tool call(s). */
  text: z.string().optional(),
  /** Use this declared tool instead of choosing one. */
  via: z.string().min(1).optional(),
  /** Directory that relative paths are joined onto when the chosen tool wants absolute paths. */
  workspaceDir: z.string().min(1).optional(),
};

/** Schema of one scripted turn. A plain string is shorthand for `{ text }`. */
export const fakeLlmTurnSchema = z.union([
  z.string().transform((text) => ({ text })),
  z.object({ text: z.string(), ...commonFields }).strict(),
  z.object({ toolCall: toolCallSchema, text: z.string().optional(), ...commonFields }).strict(),
  z
    .object({ toolCalls: z.array(toolCallSchema).min(1), text: z.string().optional(), ...commonFields })
    .strict(),
  z.object({ writeFile: fileSchema, ...writeOptions, ...commonFields }).strict(),
  z.object({ writeFiles: z.array(fileSchema).min(1), ...writeOptions, ...commonFields }).strict(),
  // A structured answer; `{{lastToolResult}}` in its strings becomes the latest tool result the client sent.
  z.object({ verdict: z.record(z.string(), z.unknown()), ...commonFields }).strict(),
  z
    .object({ json: z.unknown().refine((value) => value !== undefined, 'json is required'), ...commonFields })
    .strict(),
  z
    .object({
      error: z
        .object({
          status: z.number().int().min(400).max(599),
          /** Error message placed in the dialect's own error body. */
          message: z.string().optional(),
          /** A complete response body that replaces the dialect's error body. */
          body: z.unknown().optional(),
          /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
          headers: z.record(z.string(), z.string()).optional(),
        })
        .strict(),
      ...commonFields,
    })
    .strict(),
  z.object({ truncate: z.literal(true), text: z.string().optional(), ...commonFields }).strict(),
  z.object({ hang: z.literal(true), ...commonFields }).strict(),
]);

/** A scripted turn as tests write it (a string is shorthand for `{ text }`). */
export type FakeLlmTurn = z.input<typeof fakeLlmTurnSchema>;
/** A validated turn, with the string shorthand expanded. */
export type ParsedFakeLlmTurn = z.output<typeof fakeLlmTurnSchema>;
/** Per-turn usage as a script writes it. */
export type FakeLlmUsageInput = z.input<typeof usageSchema>;

/** Validates one turn; `index` is only used in the error message. */
export function parseFakeLlmTurn(turn: FakeLlmTurn, index: number): ParsedFakeLlmTurn {
  const result = fakeLlmTurnSchema.safeParse(turn);
  if (result.success) return result.data;
  const details = result.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'turn'}: ${issue.message}`)
    .join('; ');
  throw new FakeLlmScriptError(index, `${JSON.stringify(turn)} (${details})`, { cause: result.error });
}

/**
 * The ordered queue of turns that "main" requests consume, one turn per request. Tests hold it through
 * `FakeLlm.script` to add turns while a client runs or to check how far a client got.
 */
export class FakeLlmScript {
  readonly #turns: ParsedFakeLlmTurn[] = [];
  #served = 0;

  constructor(turns: readonly FakeLlmTurn[] = []) {
    this.push(...turns);
  }

  /** Appends turns at the end of the queue; throws `FakeLlmScriptError` on an invalid turn. */
  push(...turns: FakeLlmTurn[]): void {
    const parsed = turns.map((turn, offset) => parseFakeLlmTurn(turn, this.#turns.length + offset));
    this.#turns.push(...parsed);
  }

  /** Drops every turn not yet served and queues these instead; the served count is kept. */
  replace(turns: readonly FakeLlmTurn[]): void {
    const parsed = turns.map((turn, index) => parseFakeLlmTurn(turn, this.#served + index));
    this.#turns.splice(this.#served, this.#turns.length - this.#served, ...parsed);
  }

  /** The next turn to serve, without taking it. */
  peek(): ParsedFakeLlmTurn | undefined {
    return this.#turns[this.#served];
  }

  /** Marks the next turn as served and returns its index in the script. */
  take(): number {
    const index = this.#served;
    this.#served += 1;
    return index;
  }

  /** How many turns have been served. */
  get served(): number {
    return this.#served;
  }

  /** How many turns are still queued. */
  get remaining(): number {
    return this.#turns.length - this.#served;
  }

  /** Every turn, served and queued, in order. */
  get turns(): readonly ParsedFakeLlmTurn[] {
    return this.#turns;
  }
}
