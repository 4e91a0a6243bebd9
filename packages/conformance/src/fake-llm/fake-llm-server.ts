import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AssistantReply, DEFAULT_USAGE, type FakeLlmUsage } from './assistant-reply.js';
import type { Dialect, FakeLlmDialect } from './dialect.js';
import { anthropicDialect } from './dialect-anthropic.js';
import { geminiDialect } from './dialect-gemini.js';
import { openAiChatDialect } from './dialect-openai-chat.js';
import { openAiResponsesDialect } from './dialect-openai-responses.js';
import { describeRoutes, type MatchedRoute, matchRoute } from './fake-llm-routes.js';
import { FakeLlmScript, type FakeLlmTurn } from './fake-llm-script.js';
import { FakePromptCache, type PromptCacheAccount } from './fake-prompt-cache.js';
import { asRecord } from './json-values.js';
import { readPromptSegments } from './prompt-segments.js';
import { mergeUsage, planFinalAnswer, planTurn, type TurnPlan } from './reply-planner.js';
import { type FakeLlmRecordedRequest, redactHeaders, redactQuery, requestContains } from './request-log.js';
import { builtInSideRequestRules, findSideRequestRule, type SideRequestRule } from './side-requests.js';
import { writeJson } from './sse.js';

/** Options for `startFakeLlm`. Every field is optional. */
export interface FakeLlmOptions {
  /** The turns main requests consume, in order. More can be pushed later through `FakeLlm.script`. */
  script?: readonly FakeLlmTurn[];
  /** The client's workspace, for tools that want absolute paths; otherwise it is read from the prompt. */
  workspaceDir?: string;
  /** Usage reported when a turn sets none; defaults to input 100, output 20, cached 0, cacheWrite 0. */
  defaultUsage?: Partial<FakeLlmUsage>;
  /** The text answered once the script is exhausted, so a CLI's loop ends. Defaults to `done`. */
  finalText?: string;
  /** Model ids listed by `GET /v1/models`. Defaults to `['fake-model', 'fake-model-small']`. */
  models?: readonly string[];
  /** Extra side-request rules, tried before the built-in ones. */
  sideRequestRules?: readonly SideRequestRule[];
  /** Set to false to turn the built-in side-request rules off. Defaults to true. */
  builtInSideRequestRules?: boolean;
  /** Interface to listen on. Defaults to 127.0.0.1; keep it on loopback. */
  host?: string;
  /** Port to listen on. Defaults to 0 (a free port). */
  port?: number;
  /**
   * Account for prompt caching the way each provider does (see `FakePromptCache`): each generation
   * request's input tokens are estimated from its prompt (characters / 4) and split into cache reads,
   * cache writes (Anthropic) and plain input, against what this server instance saw before. A turn that
   * scripts its own `usage` keeps it. Off by default, so scripted and default usage stay exact.
   */
  promptCache?: boolean;
}

/** A running fake LLM server. */
export interface FakeLlm {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Base URLs as coding CLIs want them: `OPENAI_BASE_URL` / Codex `base_url` (`${url}/v1`),
   * `ANTHROPIC_BASE_URL` (`url`), `GOOGLE_GEMINI_BASE_URL` (`url`). */
  baseUrl: { openai: string; anthropic: string; gemini: string };
  /** Base URLs as the AI SDK providers want them (`baseURL`): `${url}/v1`, `${url}/v1`, `${url}/v1beta`. */
  sdkBaseUrl: { openai: string; anthropic: string; gemini: string };
  /** Every request so far, in arrival order (a live array). */
  requests: readonly FakeLlmRecordedRequest[];
  /** Generation requests that were not side requests. */
  mainRequests(): FakeLlmRecordedRequest[];
  /** Side requests: titles, summaries, routing checks, token counts, model lists. */
  sideRequests(): FakeLlmRecordedRequest[];
  /** The most recent request of any kind. */
  lastRequest(): FakeLlmRecordedRequest | undefined;
  /** Requests whose body has a string containing `text`, e.g. to check that a judge saw the diff. */
  requestsContaining(text: string): FakeLlmRecordedRequest[];
  /** Why turns could not be served (each was answered with a 500), in order. Empty when all went well. */
  problems: readonly string[];
  /** The turn queue; `script.push(...)` adds turns, `script.remaining` tells how far the client got. */
  script: FakeLlmScript;
  /** Stops listening, ends hanging and delayed answers, and resolves once the server is closed. */
  close(): Promise<void>;
}

const DIALECTS: Record<FakeLlmDialect, Dialect> = {
  'openai-chat': openAiChatDialect,
  'openai-responses': openAiResponsesDialect,
  anthropic: anthropicDialect,
  gemini: geminiDialect,
};
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Starts the fake LLM on loopback. It speaks OpenAI Chat Completions, OpenAI Responses, Anthropic
 * Messages and Gemini, streaming and not; plays `options.script` to main requests; answers side requests
 * without touching the script; and records every request. Throws `FakeLlmScriptError` on a bad script.
 */
export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const script = new FakeLlmScript(options.script ?? []);
  const defaultUsage = mergeUsage(DEFAULT_USAGE, options.defaultUsage);
  const rules = [
    ...(options.sideRequestRules ?? []),
    ...(options.builtInSideRequestRules === false ? [] : builtInSideRequestRules),
  ];
  const models = options.models ?? ['fake-model', 'fake-model-small'];
  const requests: FakeLlmRecordedRequest[] = [];
  const problems: string[] = [];
  const openResponses = new Set<ServerResponse>();
  const promptCache = options.promptCache === true ? new FakePromptCache() : undefined;
  let idCounter = 0;
  const nextId = (prefix: string) => {
    idCounter += 1;
    return `${prefix}${idCounter}`;
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake-llm.invalid');
    const route = matchRoute(request.method, url.pathname);
    const { headers, hasCredentials } = redactHeaders(request.headers);
    const { query, hasKey } = redactQuery(url.searchParams);
    const entry: FakeLlmRecordedRequest = {
      index: requests.length,
      dialect: route?.dialect,
      operation: route?.operation ?? 'unknown',
      method: request.method ?? 'GET',
      path: url.pathname,
      query,
      headers,
      hasCredentials: hasCredentials || hasKey,
      body: undefined,
      model: route?.pathModel,
      stream: false,
      side: route !== undefined && route.operation !== 'generate',
      sideRule: route?.operation === 'list-models' ? 'list-models' : undefined,
      turnIndex: undefined,
      exhausted: false,
      problem: undefined,
      writeStrategy: undefined,
      toolNames: [],
      promptCache: undefined,
      status: undefined,
    };
    requests.push(entry);
    response.on('finish', () => {
      entry.status = response.statusCode;
    });
    const text = await readBody(request);
    if (text === undefined) {
      writeJson(response, 413, {
        error: { message: `Request body is over ${MAX_BODY_BYTES} bytes or was cut off.` },
      });
      return;
    }
    if (route === undefined) {
      writeJson(response, 404, {
        error: {
          message: `The fake LLM has no route for ${entry.method} ${entry.path}. It answers: ${describeRoutes().join('; ')}.`,
          routes: describeRoutes(),
        },
      });
      return;
    }
    if (route.operation === 'list-models') {
      writeJson(response, 200, modelList(models, route.listStyle ?? 'openai'));
      return;
    }
    const dialect = DIALECTS[route.dialect ?? 'openai-chat'];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      dialect.writeError(
        response,
        400,
        `The request body is not valid JSON (${reason}); send a JSON object.`,
      );
      return;
    }
    entry.body = body;
    const record = asRecord(body);
    if (record === undefined) {
      dialect.writeError(response, 400, 'The request body must be a JSON object.');
      return;
    }
    await answer(route, dialect, record, url.searchParams, entry, response);
  }

  async function answer(
    route: MatchedRoute,
    dialect: Dialect,
    body: Record<string, unknown>,
    queryParameters: URLSearchParams,
    entry: FakeLlmRecordedRequest,
    response: ServerResponse,
  ): Promise<void> {
    const view = dialect.readRequest(body, route);
    entry.model = view.model;
    entry.stream = view.stream;
    entry.toolNames = view.tools.map((tool) => tool.name);
    if (route.operation === 'count-tokens') {
      entry.sideRule = 'count-tokens';
      const count = defaultUsage.input;
      writeJson(response, 200, dialect.name === 'gemini' ? { totalTokens: count } : { input_tokens: count });
      return;
    }
    const pending =
      promptCache === undefined
        ? undefined
        : promptCache.account(dialect.name, view.model, readPromptSegments(dialect.name, body));
    const account = pending?.account;
    entry.promptCache = account;
    // The prompt is cached once its answer has gone out, so requests sent together all miss.
    if (pending !== undefined) {
      response.on('finish', () => {
        if (response.statusCode < 400) pending.remember();
      });
    }
    const accounted = (usage: FakeLlmUsage) => withPromptCache(usage, account);
    const context = {
      response,
      view,
      body,
      query: queryParameters,
      nextId,
      now: Math.floor(Date.now() / 1000),
    };
    const sideRule = findSideRequestRule(view, rules);
    if (sideRule !== undefined) {
      entry.side = true;
      entry.sideRule = sideRule.name;
      const reply: AssistantReply = {
        text: sideRule.answer(view),
        toolCalls: [],
        finish: 'stop',
        usage: accounted(defaultUsage),
      };
      dialect.writeReply(reply, context);
      return;
    }
    const turn = script.peek();
    if (turn === undefined) {
      entry.exhausted = true;
      dialect.writeReply(
        planFinalAnswer(view, options.finalText ?? 'done', accounted(defaultUsage)),
        context,
      );
      return;
    }
    const plan: TurnPlan = planTurn(turn, view, { defaultUsage, workspaceDir: options.workspaceDir });
    if (plan.kind === 'problem') {
      const message = `Fake LLM script turn ${script.served}: ${plan.message}. The turn stays queued.`;
      entry.problem = message;
      problems.push(message);
      dialect.writeError(response, 500, message);
      return;
    }
    entry.turnIndex = script.take();
    if (plan.kind === 'reply') entry.writeStrategy = plan.strategy;
    const delayMs = 'delayMs' in turn ? (turn.delayMs ?? 0) : 0;
    if (delayMs > 0) await waitUnlessClosed(response, delayMs);
    if (plan.kind === 'hang') return;
    if (plan.kind === 'error') {
      if (plan.body === undefined) dialect.writeError(response, plan.status, plan.message, plan.headers);
      else writeJson(response, plan.status, plan.body, plan.headers);
      return;
    }
    const scriptedUsage = 'usage' in turn && turn.usage !== undefined;
    dialect.writeReply(
      scriptedUsage ? plan.reply : { ...plan.reply, usage: accounted(plan.reply.usage) },
      context,
    );
  }

  const server = createServer((request, response) => {
    openResponses.add(response);
    response.on('close', () => openResponses.delete(response));
    response.on('error', () => undefined);
    request.on('error', () => undefined);
    handle(request, response).catch((error: unknown) => {
      const message = `The fake LLM failed while answering: ${error instanceof Error ? error.message : String(error)}`;
      problems.push(message);
      writeJson(response, 500, { error: { message } });
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl: { openai: `${url}/v1`, anthropic: url, gemini: url },
    sdkBaseUrl: { openai: `${url}/v1`, anthropic: `${url}/v1`, gemini: `${url}/v1beta` },
    requests,
    mainRequests: () => requests.filter((entry) => entry.operation === 'generate' && !entry.side),
    sideRequests: () => requests.filter((entry) => entry.side),
    lastRequest: () => requests[requests.length - 1],
    requestsContaining: (text) => requests.filter((entry) => requestContains(entry, text)),
    problems,
    script,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const response of openResponses) response.destroy();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The body as text, or `undefined` when it is too large or the client went away. */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined),
    );
    request.on('error', () => resolve(undefined));
    request.on('aborted', () => resolve(undefined));
  });
}

/** Waits `delayMs`, or less if the client hangs up or the server closes (which destroys the response). */
function waitUnlessClosed(response: ServerResponse, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, delayMs);
    function done() {
      clearTimeout(timer);
      response.off('close', done);
      resolve();
    }
    response.on('close', done);
  });
}

function modelList(models: readonly string[], style: 'openai' | 'gemini'): unknown {
  if (style === 'gemini') {
    return {
      models: models.map((id) => ({
        name: `models/${id}`,
        displayName: id,
        inputTokenLimit: 1_000_000,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
      })),
    };
  }
  // One list that satisfies both the OpenAI and the Anthropic model-list readers.
  const data = models.map((id) => ({
    id,
    object: 'model',
    type: 'model',
    display_name: id,
    created: 0,
    created_at: '2025-01-01T00:00:00Z',
    owned_by: 'fake-llm',
  }));
  return {
    object: 'list',
    data,
    has_more: false,
    first_id: models[0] ?? null,
    last_id: models.at(-1) ?? null,
  };
}

/** `usage` with its prompt tokens replaced by the prompt cache's account of the request, if there is one. */
function withPromptCache(usage: FakeLlmUsage, account: PromptCacheAccount | undefined): FakeLlmUsage {
  if (account === undefined) return usage;
  return {
    ...usage,
    input: account.promptTokens,
    cached: account.readTokens,
    cacheWrite: account.writeTokens,
  };
}
