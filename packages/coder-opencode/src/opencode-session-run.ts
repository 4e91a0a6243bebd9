import {
  CoderAbortedError,
  CoderFailedError,
  CoderTimeoutError,
  type CoderV1Request,
  type CoderV1Usage,
  SnodoError,
} from '@snodo/coder-sdk';
import type { OpencodeClient } from './opencode-client.js';
import { type EventSubscription, subscribeToEvents } from './opencode-event-stream.js';
import {
  describeMessageError,
  eventSessionId,
  type OpencodeEvent,
  type OpencodeMessageInfo,
  type OpencodeMessageList,
} from './opencode-events.js';
import type { OpencodeModel } from './opencode-model.js';
import { OpencodeRequestError } from './opencode-request-error.js';
import type { OpencodeRuntime } from './opencode-runtime.js';
import type { OpencodeTranscript } from './opencode-transcript.js';
import { usageFromMessages } from './opencode-usage.js';
import {
  isSettledByPoll,
  lastAnswerIsFinal,
  type PollMemory,
  progressFingerprint,
} from './session-settlement.js';

/** What one session run needs. */
export interface SessionRunOptions {
  readonly who: { readonly coderId: string; readonly displayName: string };
  readonly client: OpencodeClient;
  readonly runtime: OpencodeRuntime;
  readonly request: CoderV1Request;
  readonly model: OpencodeModel | undefined;
  readonly agent: string | undefined;
  /** When the attempt's wall-clock limit (`request.timeoutMs`) runs out. */
  readonly deadline: number;
  /** How often the status is polled besides the event stream. */
  readonly pollIntervalMs: number;
  /** No progress of the session for this long counts as a hang. */
  readonly idleTimeoutMs: number;
  readonly transcript: OpencodeTranscript;
}

/** What a finished session reports. */
export interface SessionRunResult {
  readonly sessionId: string;
  readonly usage: CoderV1Usage | undefined;
}

/** Limit for the best-effort calls made while giving up (abort, delete): the run must end promptly. */
const cleanupCallTimeoutMs = 3000;

/**
 * One prompt in one fresh OpenCode session, start to finish: subscribe to the worktree's events and wait
 * for `server.connected` (so nothing of the session can be missed), create the session, queue the prompt
 * (`prompt_async`), then wait until the session is idle — from `session.idle` / `session.status idle`
 * events, or from the status poll when events lag or never come. `session.error`, a permission or question
 * the server waits on, the server going away, the wall-clock and idle limits and a cancel each end the
 * wait with the contract's typed error. Usage and cost are read from the session's messages; the session
 * is aborted (unless it finished) and deleted at the end, best effort.
 */
export class OpencodeSessionRun {
  private readonly options: SessionRunOptions;
  private readonly calls = new AbortController();
  private sessionId: string | undefined;
  private prompted = false;
  private finished = false;
  private readonly early: OpencodeEvent[] = [];
  private readonly messages = new Map<string, OpencodeMessageInfo>();
  private lastUsage = '';
  private memory: PollMemory = { sawBusy: false, previousNotBusy: false, previousFinal: false };
  private fingerprint = '';
  private lastProgressAt = Date.now();
  private polling = false;
  private settle: (outcome: Error | undefined) => void = () => {};
  private readonly settled: Promise<Error | undefined>;

  constructor(options: SessionRunOptions) {
    this.options = options;
    this.settled = new Promise((resolve) => {
      this.settle = (outcome) => {
        if (this.finished) return;
        this.finished = true;
        resolve(outcome);
      };
    });
  }

  /** Runs the session; resolves with its usage or rejects with a typed snodo error. */
  async run(): Promise<SessionRunResult> {
    const { request, client, transcript } = this.options;
    const onAbort = () =>
      this.settle(new CoderAbortedError({ ...this.options.who, cause: request.abortSignal.reason }));
    request.abortSignal.addEventListener('abort', onAbort, { once: true });
    const deadlineTimer = setTimeout(
      () =>
        this.settle(
          new CoderTimeoutError({ ...this.options.who, limit: 'wall-clock', timeoutMs: request.timeoutMs }),
        ),
      Math.max(this.options.deadline - Date.now(), 1),
    );
    const pollTimer = setInterval(() => void this.poll(), this.options.pollIntervalMs);
    let subscription: EventSubscription | undefined;
    let completed = false;
    try {
      if (request.abortSignal.aborted) onAbort();
      subscription = subscribeToEvents(
        client,
        { onEvent: (event) => this.onEvent(event), onEnd: (error) => void this.onStreamEnd(error) },
        {
          connectTimeoutMs: Math.min(
            client.options.requestTimeoutMs,
            Math.max(this.options.deadline - Date.now(), 1),
          ),
        },
      );
      await this.step(subscription.connected);
      this.sessionId = await this.step(client.createSession(`snodo ${request.jobId}`, this.calls.signal));
      transcript.note(`[snodo] session ${this.sessionId} created in ${request.workspace}`, 'progress');
      for (const event of this.early.splice(0)) this.onEvent(event);
      // NOTE: prompted as soon as the request is on its way: the server may start the session before its
      // answer reaches us, and a run cancelled in that gap must still abort it (aborting an idle session is
      // harmless).
      this.prompted = true;
      await this.step(
        client.promptAsync(
          this.sessionId,
          {
            parts: [{ type: 'text', text: request.prompt }],
            ...(this.options.model === undefined ? {} : { model: this.options.model }),
            ...(this.options.agent === undefined ? {} : { agent: this.options.agent }),
          },
          this.calls.signal,
        ),
      );
      this.lastProgressAt = Date.now();
      const outcome = await this.settled;
      if (outcome !== undefined) throw outcome;
      const list = await client.messages(this.sessionId);
      const usage = this.checkAnswer(list);
      completed = true;
      return { sessionId: this.sessionId, usage };
    } catch (error) {
      throw this.toCoderError(error);
    } finally {
      this.finished = true;
      clearTimeout(deadlineTimer);
      clearInterval(pollTimer);
      request.abortSignal.removeEventListener('abort', onAbort);
      this.calls.abort();
      subscription?.close();
      await this.cleanUp(completed);
    }
  }

  /** Awaits `promise` unless the run is settled first (a cancel, the limit, an error event). */
  private async step<T>(promise: Promise<T>): Promise<T> {
    promise.catch(() => {});
    const outcome = await Promise.race([
      promise.then((value) => ({ value })),
      this.settled.then((error) => ({ error })),
    ]);
    if ('value' in outcome) return outcome.value;
    throw outcome.error ?? new Error('the session ended before it started');
  }

  private onEvent(event: OpencodeEvent): void {
    const id = eventSessionId(event);
    if (id === undefined) return;
    if (this.sessionId === undefined) {
      if (this.early.length < 1000) this.early.push(event);
      return;
    }
    if (id !== this.sessionId || this.finished) return;
    this.lastProgressAt = Date.now();
    const { transcript } = this.options;
    switch (event.type) {
      case 'session.status': {
        const status = event.properties.status;
        if (status.type === 'busy' || status.type === 'retry')
          this.memory = { ...this.memory, sawBusy: true };
        if (status.type === 'retry')
          transcript.note(`[opencode] retrying: ${status.message ?? 'no reason given'}`, 'progress');
        if (status.type === 'idle' && this.prompted) this.settle(undefined);
        return;
      }
      case 'session.idle':
        if (this.prompted) this.settle(undefined);
        return;
      case 'session.error': {
        const text = describeMessageError(event.properties.error);
        transcript.note(`[opencode] session error: ${text}`);
        this.settle(this.failed(`reported an error in session ${this.sessionId}: ${text}`));
        return;
      }
      case 'permission.asked':
      case 'question.asked': {
        const what =
          event.type === 'permission.asked'
            ? `asked for permission "${event.properties.permission ?? 'unknown'}"`
            : 'asked the user a question';
        transcript.note(`[opencode] ${what}; nobody can answer in an unattended run`);
        this.settle(
          this.failed(
            `${what} and would wait for an answer, but snodo runs it unattended. Allow or deny it in the ` +
              `server's permission config (coders.${this.options.who.coderId}.permission for the host and docker runtimes)`,
          ),
        );
        return;
      }
      case 'message.updated':
        this.onMessage(event.properties.info);
        return;
      case 'message.part.updated': {
        const part = event.properties.part;
        if (part.type === 'text' && part.time?.end !== undefined && (part.text ?? '') !== '') {
          transcript.note(`[assistant] ${part.text}`, 'stdout');
        } else if (
          part.type === 'tool' &&
          (part.state?.status === 'completed' || part.state?.status === 'error')
        ) {
          const detail =
            part.state.status === 'error' ? `failed: ${part.state.error ?? ''}` : (part.state.title ?? '');
          transcript.note(`[tool] ${part.tool ?? 'unknown'} ${detail}`.trimEnd(), 'progress');
        }
        return;
      }
      default:
        return;
    }
  }

  /** Keeps the latest version of each assistant message and emits the usage so far when it changes. */
  private onMessage(info: OpencodeMessageInfo): void {
    if (info.role !== 'assistant') return;
    this.messages.set(info.id, info);
    const usage = usageFromMessages([...this.messages.values()]);
    if (usage === undefined) return;
    const key = JSON.stringify(usage);
    if (key === this.lastUsage) return;
    this.lastUsage = key;
    this.options.request.emit({ type: 'usage', usage });
  }

  /** The polling fallback, and the idle limit. */
  private async poll(): Promise<void> {
    if (this.finished || this.polling || this.sessionId === undefined || !this.prompted) return;
    this.polling = true;
    try {
      const statuses = await this.options.client.sessionStatuses(this.calls.signal);
      const status = statuses[this.sessionId]?.type;
      const notBusy = status !== 'busy' && status !== 'retry';
      if (!notBusy) this.memory = { ...this.memory, sawBusy: true };
      const list = await this.options.client.messages(this.sessionId, this.calls.signal);
      const fingerprint = progressFingerprint(list);
      if (fingerprint !== this.fingerprint) {
        this.fingerprint = fingerprint;
        this.lastProgressAt = Date.now();
      }
      const final = lastAnswerIsFinal(list);
      if (isSettledByPoll(this.memory, notBusy, final)) {
        this.options.transcript.note(
          '[snodo] the status poll found the session finished (no idle event came)',
        );
        this.settle(undefined);
      }
      this.memory = { ...this.memory, previousNotBusy: notBusy, previousFinal: final };
      if (Date.now() - this.lastProgressAt > this.options.idleTimeoutMs) {
        this.settle(
          new CoderTimeoutError({
            ...this.options.who,
            limit: 'idle',
            timeoutMs: this.options.idleTimeoutMs,
          }),
        );
      }
    } catch (error) {
      if (this.finished) return;
      // A server that refuses connections is gone; anything else is retried on the next poll.
      if (OpencodeRequestError.isInstance(error) && error.failure === 'connection')
        this.settle(this.toCoderError(error));
    } finally {
      this.polling = false;
    }
  }

  /** The event stream ended: if the server is gone, fail now; otherwise the poll carries on. */
  private async onStreamEnd(error: unknown): Promise<void> {
    if (this.finished) return;
    this.options.transcript.note(
      `[snodo] the event stream ended${error === undefined ? '' : ` (${(error as Error).message ?? String(error)})`}; polling the status instead`,
    );
    try {
      await this.options.client.health({ timeoutMs: cleanupCallTimeoutMs });
    } catch (healthError) {
      if (!this.finished) this.settle(this.toCoderError(healthError));
    }
  }

  /** Fails on an answer that carries an error or on no answer at all; returns the usage. */
  private checkAnswer(list: OpencodeMessageList): CoderV1Usage | undefined {
    const answers = list.map((message) => message.info).filter((info) => info.role === 'assistant');
    const last = answers.at(-1);
    if (last === undefined) {
      throw this.failed('went idle without any answer from the model (the session has no assistant message)');
    }
    if (last.error !== undefined) {
      throw this.failed(`ended its answer with an error: ${describeMessageError(last.error)}`);
    }
    return usageFromMessages(answers);
  }

  private failed(reason: string): CoderFailedError {
    return new CoderFailedError({
      ...this.options.who,
      reason,
      stderrTail: this.options.runtime.stderrTail(),
    });
  }

  /** Turns whatever ended the run into the contract's error. */
  private toCoderError(error: unknown): Error {
    const { request, runtime, who } = this.options;
    if (SnodoError.isInstance(error) && !OpencodeRequestError.isInstance(error)) return error;
    if (request.abortSignal.aborted)
      return new CoderAbortedError({ ...who, cause: request.abortSignal.reason });
    if (Date.now() >= this.options.deadline) {
      return new CoderTimeoutError({
        ...who,
        limit: 'wall-clock',
        timeoutMs: request.timeoutMs,
        cause: error,
      });
    }
    if (!OpencodeRequestError.isInstance(error))
      return error instanceof Error ? error : new Error(String(error));
    const exit = runtime.exitDescription();
    const tail = runtime.stderrTail();
    if (error.failure === 'connection') {
      return new CoderFailedError({
        ...who,
        stderrTail: tail,
        reason:
          `lost ${runtime.description} mid-run: ${error.message}` +
          (exit === undefined ? '' : `; the server process ${exit}`),
        cause: error,
      });
    }
    if (error.failure === 'status' && (error.status === 401 || error.status === 403)) {
      return new CoderFailedError({
        ...who,
        stderrTail: tail,
        reason:
          `was refused by ${runtime.description}: ${error.message}. Give snodo the server's password ` +
          `(coders.${who.coderId}.env.OPENCODE_SERVER_PASSWORD)`,
        cause: error,
      });
    }
    return new CoderFailedError({
      ...who,
      stderrTail: tail,
      reason: `failed talking to ${runtime.description}: ${error.message}`,
      cause: error,
    });
  }

  /** Aborts an unfinished session and deletes it; best effort, each call briefly bounded. */
  private async cleanUp(completed: boolean): Promise<void> {
    const sessionId = this.sessionId;
    if (sessionId === undefined) return;
    const { client, transcript } = this.options;
    if (!completed && this.prompted) {
      await client.abort(sessionId, cleanupCallTimeoutMs).catch((error: unknown) => {
        transcript.note(`[snodo] could not abort session ${sessionId}: ${(error as Error).message}`);
      });
    }
    await client.deleteSession(sessionId, cleanupCallTimeoutMs).catch((error: unknown) => {
      transcript.note(`[snodo] could not delete session ${sessionId}: ${(error as Error).message}`);
    });
  }
}
