import { setTimeout as delay } from 'node:timers/promises';

/** How a promise ended, or that it had not ended in time. */
export type Settled<T> =
  | { readonly state: 'resolved'; readonly value: T; readonly afterMs: number }
  | { readonly state: 'rejected'; readonly error: unknown; readonly afterMs: number }
  | { readonly state: 'pending'; readonly afterMs: number };

/**
 * Waits for `promise` at most `limitMs` (no limit when omitted) and says how it ended. A promise still
 * pending keeps a rejection handler, so an adapter that fails later never raises an unhandled rejection.
 */
export async function settle<T>(promise: Promise<T>, limitMs?: number): Promise<Settled<T>> {
  const startedAt = Date.now();
  const outcome = promise.then(
    (value): Settled<T> => ({ state: 'resolved', value, afterMs: Date.now() - startedAt }),
    (error: unknown): Settled<T> => ({ state: 'rejected', error, afterMs: Date.now() - startedAt }),
  );
  if (limitMs === undefined) return outcome;
  const controller = new AbortController();
  const timeout = delay(limitMs, undefined, { signal: controller.signal }).then(
    (): Settled<T> => ({ state: 'pending', afterMs: Date.now() - startedAt }),
    (): Settled<T> => ({ state: 'pending', afterMs: Date.now() - startedAt }),
  );
  const first = await Promise.race([outcome, timeout]);
  controller.abort();
  return first;
}
