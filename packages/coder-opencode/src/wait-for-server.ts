import { setTimeout as delay } from 'node:timers/promises';
import type { OpencodeClient } from './opencode-client.js';
import { OpencodeRequestError } from './opencode-request-error.js';
import { checkServerVersion, type ServerVersionContext } from './server-version.js';

/** How long to wait between two health checks of a server that is still starting. */
const retryIntervalMs = 250;

/**
 * Waits until the server answers its health check and proves to be OpenCode 1.x; returns its version.
 * Connection failures and timeouts count as "still starting" until `limitMs` runs out (a container's
 * port is published before the server inside listens); the last failure is then rethrown. Anything else
 * (a 401, HTML from a 2.x server, a 2.x version) is final at once.
 */
export async function waitForServer(
  client: OpencodeClient,
  context: ServerVersionContext,
  options: { limitMs: number; signal: AbortSignal; isGone?: () => boolean },
): Promise<string> {
  const until = Date.now() + options.limitMs;
  for (;;) {
    try {
      const left = Math.max(until - Date.now(), 1);
      return await checkServerVersion(client, context, {
        signal: options.signal,
        timeoutMs:
          options.limitMs <= 0
            ? client.options.requestTimeoutMs
            : Math.min(left, client.options.requestTimeoutMs),
      });
    } catch (error) {
      const retryable =
        OpencodeRequestError.isInstance(error) &&
        (error.failure === 'connection' || error.failure === 'timeout');
      if (!retryable || Date.now() >= until || options.signal.aborted || options.isGone?.() === true)
        throw error;
    }
    await delay(retryIntervalMs);
  }
}
