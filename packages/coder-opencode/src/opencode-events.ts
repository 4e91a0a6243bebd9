import { z } from 'zod';

/**
 * The wire shapes of OpenCode's V1 server API that this coder reads, as zod schemas (OpenCode 1.18's
 * OpenAPI document at `GET /doc` has the full ones). Every object is `loose`: newer servers add fields, and
 * only the fields below are relied on.
 */

/** `GET /global/health`. */
export const healthSchema = z.looseObject({ healthy: z.boolean(), version: z.string().optional() });
/** The health answer. */
export type OpencodeHealth = z.infer<typeof healthSchema>;

/** `POST /session`. */
export const sessionSchema = z.looseObject({ id: z.string().min(1), directory: z.string().optional() });

/** A session's status: `idle`, `busy` or `retry` (with the retry's message). */
export const sessionStatusSchema = z.looseObject({ type: z.string(), message: z.string().optional() });
/** A session status. */
export type OpencodeSessionStatus = z.infer<typeof sessionStatusSchema>;

/** `GET /session/status`: busy sessions by id; an idle session may be missing from the map. */
export const sessionStatusMapSchema = z.record(z.string(), sessionStatusSchema);

/** The error an assistant message or a `session.error` event carries (`APIError`, `ProviderAuthError`…). */
export const messageErrorSchema = z.looseObject({
  name: z.string(),
  data: z.looseObject({ message: z.string().optional() }).optional(),
});
/** A message error. */
export type OpencodeMessageError = z.infer<typeof messageErrorSchema>;

const tokenCount = z.number().nonnegative();

/** Token counts of an assistant message. `input` excludes cache reads and writes; `output` excludes reasoning. */
export const tokensSchema = z.looseObject({
  input: tokenCount,
  output: tokenCount,
  reasoning: tokenCount.optional(),
  cache: z.looseObject({ read: tokenCount, write: tokenCount }).optional(),
});

/** A message's `info`: user or assistant; assistants carry tokens, cost, finish reason and errors. */
export const messageInfoSchema = z.looseObject({
  id: z.string(),
  role: z.string(),
  sessionID: z.string().optional(),
  time: z.looseObject({ created: z.number().optional(), completed: z.number().optional() }).optional(),
  providerID: z.string().optional(),
  modelID: z.string().optional(),
  cost: z.number().nonnegative().optional(),
  tokens: tokensSchema.optional(),
  error: messageErrorSchema.optional(),
  finish: z.string().optional(),
});
/** A message's info. */
export type OpencodeMessageInfo = z.infer<typeof messageInfoSchema>;

/** `GET /session/:id/message`: the session's messages with their parts. */
export const messageListSchema = z.array(
  z.looseObject({ info: messageInfoSchema, parts: z.array(z.unknown()) }),
);
/** The message list. */
export type OpencodeMessageList = z.infer<typeof messageListSchema>;

/** One part of a message as events report it: text, a tool call with its state, a step boundary… */
export const partSchema = z.looseObject({
  type: z.string(),
  sessionID: z.string().optional(),
  text: z.string().optional(),
  tool: z.string().optional(),
  state: z
    .looseObject({
      status: z.string().optional(),
      title: z.string().optional(),
      error: z.string().optional(),
      input: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  time: z.looseObject({ end: z.number().optional() }).optional(),
});

const withSession = { sessionID: z.string() };

/** The events this coder acts on; anything else on the stream is `{ type: 'other' }`. */
export const opencodeEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('server.connected') }),
  z.looseObject({ type: z.literal('session.idle'), properties: z.looseObject(withSession) }),
  z.looseObject({
    type: z.literal('session.status'),
    properties: z.looseObject({ ...withSession, status: sessionStatusSchema }),
  }),
  z.looseObject({
    type: z.literal('session.error'),
    properties: z.looseObject({ sessionID: z.string().optional(), error: messageErrorSchema.optional() }),
  }),
  z.looseObject({
    type: z.literal('message.updated'),
    properties: z.looseObject({ info: messageInfoSchema }),
  }),
  z.looseObject({
    type: z.literal('message.part.updated'),
    properties: z.looseObject({ part: partSchema }),
  }),
  z.looseObject({
    type: z.literal('permission.asked'),
    properties: z.looseObject({ ...withSession, permission: z.string().optional() }),
  }),
  z.looseObject({
    type: z.literal('question.asked'),
    properties: z.looseObject(withSession),
  }),
]);

/** An event from `GET /event` this coder understands, or `other` (with its type name) for the rest. */
export type OpencodeEvent =
  | z.infer<typeof opencodeEventSchema>
  | { readonly type: 'other'; readonly name: string };

const knownTypes: ReadonlySet<string> = new Set<string>(
  opencodeEventSchema.options.map((option) => option.shape.type.value),
);

/**
 * Parses one SSE `data:` payload. Unknown event types become `other`; a known type with an unexpected
 * shape also becomes `other` (named `<type> (unreadable)`) rather than failing the run, since the run
 * does not depend on any single event: status polling backs the stream up.
 */
export function parseOpencodeEvent(data: string): OpencodeEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const name = (value as { type?: unknown } | null)?.type;
  if (typeof name !== 'string') return undefined;
  if (!knownTypes.has(name)) return { type: 'other', name };
  const parsed = opencodeEventSchema.safeParse(value);
  return parsed.success ? parsed.data : { type: 'other', name: `${name} (unreadable)` };
}

/** The session an event belongs to, when it names one. */
export function eventSessionId(event: OpencodeEvent): string | undefined {
  if (event.type === 'other' || event.type === 'server.connected') return undefined;
  if (event.type === 'message.updated') return event.properties.info.sessionID;
  if (event.type === 'message.part.updated') return event.properties.part.sessionID;
  return event.properties.sessionID;
}

/** One line describing a message error: `APIError: rate limited`. */
export function describeMessageError(error: OpencodeMessageError | undefined): string {
  if (error === undefined) return 'an unnamed error';
  const message = error.data?.message?.trim();
  return message === undefined || message === '' ? error.name : `${error.name}: ${message}`;
}
