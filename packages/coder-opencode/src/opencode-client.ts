import type { z } from 'zod';
import {
  healthSchema,
  messageListSchema,
  type OpencodeHealth,
  type OpencodeMessageList,
  type OpencodeSessionStatus,
  sessionSchema,
  sessionStatusMapSchema,
} from './opencode-events.js';
import type { OpencodeModel } from './opencode-model.js';
import { OpencodeRequestError } from './opencode-request-error.js';

/** How to reach one OpenCode server for one worktree. */
export interface OpencodeClientOptions {
  /** The server's base URL, without a trailing slash. */
  readonly baseUrl: string;
  /**
   * The worktree every call works in, sent as `?directory=`: one server serves many worktrees, each as
   * its own OpenCode instance. (The `x-opencode-directory` header says the same, but a header cannot carry
   * every path byte, so the query parameter is used alone.)
   */
  readonly directory: string | undefined;
  /** Basic-auth user, used with `password`. */
  readonly username: string;
  /** Basic-auth password; without one no `authorization` header is sent. */
  readonly password: string | undefined;
  /** Limit for each call, in milliseconds. */
  readonly requestTimeoutMs: number;
}

/** What `POST /session/:id/prompt_async` gets. */
export interface OpencodePromptBody {
  readonly parts: readonly { readonly type: 'text'; readonly text: string }[];
  readonly model?: OpencodeModel;
  readonly agent?: string;
}

/** One call, described for `send`. */
interface Call {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** The system code behind a failed fetch (`ECONNREFUSED`), read from undici's error causes. */
export function connectionCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current != null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The first line of a body, shortened, for messages. */
function excerpt(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

/**
 * Typed calls to OpenCode's V1 server API (`opencode serve`), with the worktree passed on each call and a
 * limit on each call. Every failure is an `OpencodeRequestError` saying which call failed and how; every
 * answer is checked against the zod schemas in `opencode-events.ts`.
 */
export class OpencodeClient {
  readonly options: OpencodeClientOptions;
  private readonly authorization: string | undefined;

  constructor(options: OpencodeClientOptions) {
    this.options = options;
    this.authorization =
      options.password === undefined
        ? undefined
        : `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  }

  /** The full URL of `path` with the worktree as `?directory=`. */
  url(path: string): string {
    const url = new URL(`${this.options.baseUrl}${path}`);
    if (this.options.directory !== undefined) url.searchParams.set('directory', this.options.directory);
    return url.toString();
  }

  /** Headers every call carries. */
  headers(accept = 'application/json'): Record<string, string> {
    return {
      accept,
      ...(this.authorization === undefined ? {} : { authorization: this.authorization }),
    };
  }

  /** `GET /global/health`: `{ healthy, version }`. */
  async health(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<OpencodeHealth> {
    return this.json({ method: 'GET', path: '/global/health', ...options }, healthSchema);
  }

  /** `POST /session`: a new session in the worktree; returns its id. */
  async createSession(title: string, signal?: AbortSignal): Promise<string> {
    const session = await this.json(
      { method: 'POST', path: '/session', body: { title }, signal },
      sessionSchema,
    );
    return session.id;
  }

  /** `POST /session/:id/prompt_async`: queues the prompt and returns at once (204). */
  async promptAsync(sessionId: string, body: OpencodePromptBody, signal?: AbortSignal): Promise<void> {
    await this.send({
      method: 'POST',
      path: `/session/${encodeURIComponent(sessionId)}/prompt_async`,
      body,
      signal,
    });
  }

  /** `GET /session/status`: the status of every session of the worktree that is not idle. */
  async sessionStatuses(signal?: AbortSignal): Promise<Record<string, OpencodeSessionStatus>> {
    return this.json({ method: 'GET', path: '/session/status', signal }, sessionStatusMapSchema);
  }

  /** `GET /session/:id/message`: every message with its parts. */
  async messages(sessionId: string, signal?: AbortSignal): Promise<OpencodeMessageList> {
    return this.json(
      { method: 'GET', path: `/session/${encodeURIComponent(sessionId)}/message`, signal },
      messageListSchema,
    );
  }

  /** `POST /session/:id/abort`: stops the session's work. */
  async abort(sessionId: string, timeoutMs?: number): Promise<void> {
    await this.send({ method: 'POST', path: `/session/${encodeURIComponent(sessionId)}/abort`, timeoutMs });
  }

  /** `DELETE /session/:id`. */
  async deleteSession(sessionId: string, timeoutMs?: number): Promise<void> {
    await this.send({ method: 'DELETE', path: `/session/${encodeURIComponent(sessionId)}`, timeoutMs });
  }

  /**
   * A plain GET of `path` with the same auth and limits, answering status, content type and an excerpt of
   * the body. Used to tell an OpenCode 2.x server (V1 routes answer HTML, `/api/info` answers JSON) from
   * anything else; never throws for an HTTP status.
   */
  async probe(path: string, signal?: AbortSignal): Promise<{ status: number; json: boolean; body: string }> {
    const response = await this.fetch({ method: 'GET', path, signal });
    const body = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json');
    return { status: response.status, json, body };
  }

  /** Opens `GET /event` (server-sent events) for the worktree; the caller reads and closes the body. */
  async openEventStream(signal: AbortSignal): Promise<Response> {
    const route = 'GET /event';
    let response: Response;
    try {
      response = await fetch(this.url('/event'), { headers: this.headers('text/event-stream'), signal });
    } catch (error) {
      throw this.fetchError(route, error, signal);
    }
    const type = response.headers.get('content-type') ?? '';
    if (response.ok && type.includes('text/event-stream') && response.body !== null) return response;
    const body = excerpt(await response.text().catch(() => ''));
    throw new OpencodeRequestError({
      failure: response.ok ? 'unexpected-body' : 'status',
      route,
      status: response.status,
      detail: response.ok ? `content type ${type || 'none'}: ${body}` : body,
    });
  }

  private async json<Schema extends z.ZodType>(call: Call, schema: Schema): Promise<z.infer<Schema>> {
    const route = `${call.method} ${call.path}`;
    const text = await this.send(call);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new OpencodeRequestError({
        failure: 'unexpected-body',
        route,
        detail: excerpt(text),
        cause: error,
      });
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new OpencodeRequestError({
        failure: 'unexpected-body',
        route,
        detail: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'unexpected shape'}`,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  /** Sends a call and answers the body text of a 2xx answer; anything else is an `OpencodeRequestError`. */
  private async send(call: Call): Promise<string> {
    const route = `${call.method} ${call.path}`;
    const response = await this.fetch(call);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.fetchError(route, error, call.signal);
    }
    if (!response.ok) {
      throw new OpencodeRequestError({
        failure: 'status',
        route,
        status: response.status,
        detail: excerpt(text),
      });
    }
    return text;
  }

  private async fetch(call: Call): Promise<Response> {
    const route = `${call.method} ${call.path}`;
    const timeout = AbortSignal.timeout(call.timeoutMs ?? this.options.requestTimeoutMs);
    const signal = call.signal === undefined ? timeout : AbortSignal.any([call.signal, timeout]);
    try {
      return await fetch(this.url(call.path), {
        method: call.method,
        headers: {
          ...this.headers(),
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
      });
    } catch (error) {
      throw this.fetchError(route, error, call.signal, timeout);
    }
  }

  private fetchError(
    route: string,
    error: unknown,
    signal?: AbortSignal,
    timeout?: AbortSignal,
  ): OpencodeRequestError {
    if (signal?.aborted) return new OpencodeRequestError({ failure: 'aborted', route, cause: error });
    if (timeout?.aborted) return new OpencodeRequestError({ failure: 'timeout', route, cause: error });
    return new OpencodeRequestError({
      failure: 'connection',
      route,
      detail: connectionCode(error),
      cause: error,
    });
  }
}
