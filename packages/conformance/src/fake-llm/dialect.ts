import type { ServerResponse } from 'node:http';
import type { AssistantReply } from './assistant-reply.js';
import type { ConversationView } from './conversation-view.js';

/** The wire protocols the fake LLM speaks. */
export type FakeLlmDialect = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** What a dialect writer needs besides the answer. */
export interface ReplyContext {
  /** The HTTP response to write to. */
  response: ServerResponse;
  /** The request as the dialect reader saw it. */
  view: ConversationView;
  /** The parsed request body, for dialect-only flags such as `stream_options.include_usage`. */
  body: Record<string, unknown>;
  /** The request's query string (Gemini streams as SSE only with `alt=sse`). */
  query: URLSearchParams;
  /** A fresh id with this prefix, unique within the server, e.g. `call_fake_3`. */
  nextId(prefix: string): string;
  /** Seconds since the epoch, for `created` fields. */
  now: number;
}

/** One wire protocol: how to read its requests and how to write answers and errors in it. */
export interface Dialect {
  /** The protocol's name, recorded with each request. */
  name: FakeLlmDialect;
  /**
   * Builds the neutral view of a generation request. `pathModel` and `pathStream` come from the URL for
   * Gemini, whose model and streaming mode live in the path.
   */
  readRequest(
    body: Record<string, unknown>,
    route: { pathModel?: string; pathStream?: boolean },
  ): ConversationView;
  /** Writes a complete answer, as JSON or as the dialect's event stream. */
  writeReply(reply: AssistantReply, context: ReplyContext): void;
  /** Writes an error in the dialect's own error body shape. */
  writeError(
    response: ServerResponse,
    status: number,
    message: string,
    headers?: Record<string, string>,
  ): void;
}
