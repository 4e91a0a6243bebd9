import { isVersionInRange } from '@snodo/coder-sdk';
import type { OpencodeClient } from './opencode-client.js';
import { OpencodeRequestError } from './opencode-request-error.js';
import { OpencodeServerVersionError } from './opencode-server-version-error.js';
import { SUPPORTED_OPENCODE_VERSIONS } from './version.js';

/** Who is asking, for the error message. */
export interface ServerVersionContext {
  /** The coder's id. */
  readonly id: string;
  readonly displayName: string;
  readonly installHint: string;
}

/** The version an OpenCode 2.x server reports on `GET /api/info`, or `2.x` when it says none. */
function versionFromInfo(body: string): string {
  try {
    const version = (JSON.parse(body) as { version?: unknown }).version;
    if (typeof version === 'string' && version !== '') return version;
  } catch {
    // An unreadable body still proves the route exists; the major version is all that matters.
  }
  return '2.x';
}

/**
 * Checks that the server speaks OpenCode's V1 API and returns its version (`/global/health`). A 2.x server
 * is recognised either by its version or by its V1 routes answering HTML while `GET /api/info` answers
 * JSON, and refused with `OpencodeServerVersionError`. Other failures (refused connection, 401) are
 * rethrown as the `OpencodeRequestError` they are, for the caller to word.
 */
export async function checkServerVersion(
  client: OpencodeClient,
  context: ServerVersionContext,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<string> {
  const where = `the server at ${client.options.baseUrl}`;
  const who = { coderId: context.id, displayName: context.displayName, installHint: context.installHint };
  let version: string | undefined;
  try {
    version = (await client.health(options)).version;
  } catch (error) {
    if (OpencodeRequestError.isInstance(error) && error.failure === 'unexpected-body') {
      const info = await client.probe('/api/info', options.signal).catch(() => undefined);
      if (info !== undefined && info.status >= 200 && info.status < 300 && info.json) {
        throw new OpencodeServerVersionError({
          ...who,
          foundVersion: versionFromInfo(info.body),
          where,
          cause: error,
        });
      }
    }
    throw error;
  }
  if (version === undefined || version === '') return 'unknown';
  if (!isVersionInRange(version, SUPPORTED_OPENCODE_VERSIONS)) {
    throw new OpencodeServerVersionError({ ...who, foundVersion: version, where });
  }
  return version;
}
