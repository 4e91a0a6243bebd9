/**
 * The dialect-neutral answer the fake LLM decided on. A dialect writer (`dialect-*.ts`) turns it into its
 * own JSON or SSE events, so every dialect tells the same story for the same scripted turn.
 */

/** Token counts reported with an answer. `input` includes `cached` and `cacheWrite`. */
export interface FakeLlmUsage {
  /** Every prompt token, cached ones included. The Anthropic dialect reports `input - cached - cacheWrite`
   * as `input_tokens`, because Anthropic counts cache reads and writes separately. */
  input: number;
  /** Generated tokens. */
  output: number;
  /** Prompt tokens read from cache. */
  cached: number;
  /** Prompt tokens written to cache (only Anthropic has a field for it). */
  cacheWrite: number;
}

/** One tool call the answer makes. The dialect writer assigns the call id. */
export interface PlannedToolCall {
  /** The declared tool's name. */
  name: string;
  /** `custom` calls carry raw text (OpenAI Responses `custom_tool_call`); `function` calls carry JSON. */
  kind: 'function' | 'custom';
  /** JSON arguments for `function` calls, raw text for `custom` calls. */
  input: Record<string, unknown> | string;
}

/** Why the answer ended, in dialect-neutral terms. */
export type FinishReason = 'stop' | 'tool-calls' | 'length';

/** A complete answer. */
export interface AssistantReply {
  /** Assistant text; may be empty when the answer is only tool calls. */
  text: string;
  /** Tool calls, in order; empty for a text answer. */
  toolCalls: PlannedToolCall[];
  /** Why the answer ended. */
  finish: FinishReason;
  /** Usage reported with the answer. */
  usage: FakeLlmUsage;
}

/** The usage every answer reports unless the turn or the options say otherwise. */
export const DEFAULT_USAGE: FakeLlmUsage = { input: 100, output: 20, cached: 0, cacheWrite: 0 };

/** Anthropic's `input_tokens`: the prompt tokens that were neither read from nor written to cache. */
export function uncachedInput(usage: FakeLlmUsage): number {
  return Math.max(0, usage.input - usage.cached - usage.cacheWrite);
}

/** The argument text of a tool call as it goes on the wire. */
export function toolCallArguments(call: PlannedToolCall): string {
  return typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
}

/**
 * Splits text into about `count` pieces, cutting after a space where one is near, so streamed answers
 * arrive as several deltas like a real model's. Joining the pieces gives back the text exactly.
 */
export function splitIntoPieces(text: string, count = 3): string[] {
  if (text.length === 0) return [];
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const space = text.indexOf(' ', end);
    if (end < text.length && space !== -1 && space - end < size) end = space + 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
