import type { ServerResponse } from 'node:http';

/**
 * Server-sent events and JSON bodies on a `node:http` response. Every writer checks that the client is
 * still there first, because a client may hang up mid-answer and the server must not throw for that.
 */

/** Whether the response can still be written to. */
export function isWritable(response: ServerResponse): boolean {
  return !response.destroyed && !response.writableEnded;
}

/** Sends the status line and headers of an event stream. */
export function startEventStream(response: ServerResponse, headers: Record<string, string> = {}): void {
  if (!isWritable(response) || response.headersSent) return;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
}

/** Writes one event: an optional `event:` line, then `data:` with the JSON (or the raw string). */
export function writeEvent(response: ServerResponse, data: unknown, eventName?: string): void {
  if (!isWritable(response)) return;
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  response.write(`${eventName === undefined ? '' : `event: ${eventName}\n`}data: ${payload}\n\n`);
}

/** Ends an event stream. */
export function endEventStream(response: ServerResponse): void {
  if (isWritable(response)) response.end();
}

/** Sends a complete JSON response. */
export function writeJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (!isWritable(response) || response.headersSent) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}
