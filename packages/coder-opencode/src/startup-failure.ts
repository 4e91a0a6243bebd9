import {
  CoderAbortedError,
  CoderFailedError,
  CoderTimeoutError,
  type CoderV1Request,
  SnodoError,
} from '@snodo/coder-sdk';
import { OpencodeRequestError } from './opencode-request-error.js';
import type { OpencodeRuntime } from './opencode-runtime.js';

/**
 * Words a failed first contact with the server (health and version check, before any session exists) as
 * the contract's error: a version refusal stays what it is; a cancel or the attempt's limit wins over the
 * symptom; otherwise `CODER_FAILED` saying which server did not answer, how, and what to check.
 */
export function describeStartupFailure(
  who: { readonly id: string; readonly displayName: string },
  runtime: OpencodeRuntime,
  error: unknown,
  request: CoderV1Request,
  deadline: number,
): unknown {
  const coder = { coderId: who.id, displayName: who.displayName };
  if (SnodoError.isInstance(error) && !OpencodeRequestError.isInstance(error)) return error;
  if (request.abortSignal.aborted)
    return new CoderAbortedError({ ...coder, cause: request.abortSignal.reason });
  if (Date.now() >= deadline) {
    return new CoderTimeoutError({
      ...coder,
      limit: 'wall-clock',
      timeoutMs: request.timeoutMs,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  const exit = runtime.exitDescription();
  let advice = '';
  if (
    OpencodeRequestError.isInstance(error) &&
    error.failure === 'status' &&
    (error.status === 401 || error.status === 403)
  ) {
    advice = `; give snodo the server's password (coders.${who.id}.env.OPENCODE_SERVER_PASSWORD)`;
  } else if (OpencodeRequestError.isInstance(error) && error.failure === 'unexpected-body') {
    advice =
      '; it does not answer like an OpenCode 1.x server (OpenCode 2.x answers the old routes with its web page)';
  } else if (runtime.kind === 'url') {
    advice = `; check that the server is running and that coders.${who.id}.url points at it`;
  }
  return new CoderFailedError({
    ...coder,
    stderrTail: runtime.stderrTail(),
    reason:
      `could not talk to ${runtime.description}${runtime.description.includes(runtime.url) ? '' : ` at ${runtime.url}`}: ${message}` +
      (exit === undefined ? '' : ` (the server process ${exit})`) +
      advice,
    cause: error,
  });
}
