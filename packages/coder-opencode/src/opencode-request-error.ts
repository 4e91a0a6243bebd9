/** Why a call to the OpenCode server failed. */
export type OpencodeRequestFailure =
  /** No answer at all: refused, reset, DNS (`detail` has the system code, e.g. `ECONNREFUSED`). */
  | 'connection'
  /** No answer within the request limit. */
  | 'timeout'
  /** The caller's signal fired. */
  | 'aborted'
  /** An HTTP status other than the expected one. */
  | 'status'
  /** A 2xx answer that is not the JSON this call expects (HTML from a 2.x server, a changed shape). */
  | 'unexpected-body';

const name = 'OpencodeRequestError';
const marker = 'snodo.error.OPENCODE_REQUEST_FAILED';
const symbol = Symbol.for(marker);
const snodoMarker = Symbol.for('snodo.error');

/**
 * A failed HTTP call to the OpenCode server. Internal to this package: the session run turns it into the
 * contract's errors (`CODER_FAILED` naming the server, `CODER_TIMEOUT`, `CODER_ABORTED`), so it never
 * reaches core.
 */
export class OpencodeRequestError extends Error {
  private readonly [symbol] = true;
  private readonly [snodoMarker] = true;

  /** A stable code for logs and tests. */
  readonly code = 'OPENCODE_REQUEST_FAILED';
  /** What kind of failure it was. */
  readonly failure: OpencodeRequestFailure;
  /** The call, as `METHOD /path`. */
  readonly route: string;
  /** The HTTP status, for `status` and `unexpected-body` failures. */
  readonly status: number | undefined;
  /** A system error code (`ECONNREFUSED`, `ECONNRESET`) or a short excerpt of the body. */
  readonly detail: string | undefined;

  constructor(options: {
    failure: OpencodeRequestFailure;
    route: string;
    status?: number;
    detail?: string;
    cause?: unknown;
  }) {
    const what = {
      connection: `got no connection${options.detail === undefined ? '' : ` (${options.detail})`}`,
      timeout: 'got no answer in time',
      aborted: 'was cancelled',
      status: `answered HTTP ${options.status}${options.detail === undefined ? '' : `: ${options.detail}`}`,
      'unexpected-body': `answered something that is not the expected JSON${options.detail === undefined ? '' : `: ${options.detail}`}`,
    }[options.failure];
    super(`${options.route} ${what}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.failure = options.failure;
    this.route = options.route;
    this.status = options.status;
    this.detail = options.detail;
  }

  /** `true` for this error from any copy of this package. */
  static isInstance(value: unknown): value is OpencodeRequestError {
    return value != null && typeof value === 'object' && (value as Record<symbol, unknown>)[symbol] === true;
  }
}
