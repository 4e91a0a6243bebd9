import type { ProviderRetry } from '@snodo/coder-sdk';

/**
 * Codex's notice that its model stream failed and it reconnects, an `error` event on stdout (checked live
 * at 0.171.0 against servers answering 500 and 401):
 * `{"type":"error","message":"Reconnecting... 1/5 (unexpected status 401 Unauthorized: …, url: …)"}`.
 * A 500 reads `(We’re currently experiencing high demand, …)`: no status, so it counts as an outage.
 * `stream_max_retries` of the provider sets the `/5`.
 */
const reconnecting = /^Reconnecting\.\.\. (\d+)\/(\d+)(?: \((.*)\))?$/s;

/** The retry an `error` event announces, or `undefined` for any other line. */
export function parseCodexRetry(line: string): ProviderRetry | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || !trimmed.includes('Reconnecting')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const event = value as { type?: unknown; message?: unknown };
  if (event.type !== 'error' || typeof event.message !== 'string') return undefined;
  const match = reconnecting.exec(event.message);
  if (match === null) return undefined;
  const detail = match[3];
  const status = detail === undefined ? undefined : /\bstatus (\d{3})\b/.exec(detail)?.[1];
  return {
    attempt: Number(match[1]),
    maxRetries: Number(match[2]),
    ...(status === undefined ? {} : { status: Number(status) }),
    ...(detail === undefined ? {} : { detail }),
  };
}

/**
 * Lines Codex prints on stderr that never explain a failure, removed from error messages' stderr tails
 * (the transcript keeps them), checked at 0.171.0:
 * - `WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper
 *   binaries under temporary dir …`: printed whenever `CODEX_HOME` is under a temporary directory (a
 *   repository in `/tmp`, a CI runner);
 * - `Reading additional input from stdin...`: printed on every `codex exec`, stdin being closed.
 */
export const CODEX_STDERR_NOISE: readonly RegExp[] = [
  /^WARNING: proceeding, even though we could not create PATH aliases\b/,
  /^Reading additional input from stdin\.\.\.$/,
];
