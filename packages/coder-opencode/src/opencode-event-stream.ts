import { createParser } from 'eventsource-parser';
import type { OpencodeClient } from './opencode-client.js';
import { type OpencodeEvent, parseOpencodeEvent } from './opencode-events.js';
import { OpencodeRequestError } from './opencode-request-error.js';

/** What a subscription reports. */
export interface EventStreamHandlers {
  /** Every parsed event, in order. */
  readonly onEvent: (event: OpencodeEvent) => void;
  /** The stream ended without `close()` being called: `error` says how, `undefined` for a clean end. */
  readonly onEnd: (error: unknown) => void;
}

/** An open subscription to `GET /event`. */
export interface EventSubscription {
  /** Resolves once the server confirmed the subscription (`server.connected`); rejects if it never does. */
  readonly connected: Promise<void>;
  /** Stops reading and closes the connection; no handler is called afterwards. */
  close(): void;
}

/**
 * Subscribes to the worktree's server-sent events. The run waits for `connected` before prompting, so no
 * event of its session can be missed: the server sends `server.connected` only once the subscriber is
 * registered. Parsing uses `eventsource-parser`; each `data:` payload goes through `parseOpencodeEvent`.
 */
export function subscribeToEvents(
  client: OpencodeClient,
  handlers: EventStreamHandlers,
  options: { connectTimeoutMs: number },
): EventSubscription {
  const controller = new AbortController();
  let closed = false;
  let confirm: () => void = () => {};
  let refuse: (error: unknown) => void = () => {};
  const connected = new Promise<void>((resolve, reject) => {
    confirm = resolve;
    refuse = reject;
  });
  // A rejection nobody awaits yet must not crash the process; `connected` is awaited by the run.
  connected.catch(() => {});
  const connectTimer = setTimeout(() => {
    refuse(
      new OpencodeRequestError({
        failure: 'timeout',
        route: 'GET /event',
        detail: 'no server.connected event',
      }),
    );
  }, options.connectTimeoutMs);

  const parser = createParser({
    onEvent: (message) => {
      if (closed) return;
      const event = parseOpencodeEvent(message.data);
      if (event === undefined) return;
      if (event.type === 'server.connected') {
        clearTimeout(connectTimer);
        confirm();
      }
      handlers.onEvent(event);
    },
  });

  const finish = (error: unknown) => {
    clearTimeout(connectTimer);
    refuse(
      error ??
        new OpencodeRequestError({ failure: 'connection', route: 'GET /event', detail: 'stream ended' }),
    );
    if (closed) return;
    closed = true;
    handlers.onEnd(error);
  };

  void (async () => {
    try {
      const response = await client.openEventStream(controller.signal);
      const body = response.body;
      if (body === null) return finish(undefined);
      const decoder = new TextDecoder();
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        if (closed) break;
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
      finish(undefined);
    } catch (error) {
      finish(closed ? undefined : error);
    }
  })();

  return {
    connected,
    close: () => {
      if (closed) return;
      closed = true;
      clearTimeout(connectTimer);
      controller.abort();
    },
  };
}
