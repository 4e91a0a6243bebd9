import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Token counts a scripted answer reports, in each wire format's own fields. */
export interface FakeUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  /** A cost the endpoint reports in its usage object, as OpenRouter does (OpenAI format only). */
  readonly cost?: number;
}

/** One scripted reply: the model's text, or an HTTP error. */
export type FakeAnswer =
  | {
      readonly text: string;
      readonly usage?: FakeUsage;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly status: number; readonly body: unknown };

/** A request the server received, for assertions. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/** A running fake: its base origin, the queue of answers, and every request it saw. */
export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>`; providers get `${origin}/v1` (OpenAI, Anthropic) or `${origin}/v1beta` (Google). */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** Queues answers, served in order to whichever wire format asks next. */
  enqueue(...answers: FakeAnswer[]): void;
  /** Drops unplayed answers and recorded requests, between tests. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE: FakeUsage = { input: 10, output: 5 };

/**
 * A small LLM server for this package's tests: `node:http` on 127.0.0.1, a random port, non-streaming
 * OpenAI Chat Completions (`…/chat/completions`), Anthropic Messages (`…/messages`) and Gemini
 * (`…/models/<id>:generateContent`). It plays a queue of scripted answers and records every request.
 * An empty queue answers 500, so a test that makes an unexpected call fails loudly.
 */
export async function startFakeLlmServer(): Promise<FakeLlmServer> {
  const queue: FakeAnswer[] = [];
  const requests: RecordedRequest[] = [];

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      sendJson(response, 500, { error: { message: `fake LLM server crashed: ${String(error)}` } });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
    const path = request.url ?? '/';
    requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
    if (body.stream === true) {
      sendJson(response, 400, { error: { message: 'fake LLM server: streaming is not scripted' } });
      return;
    }
    const answer = queue.shift();
    if (answer === undefined) {
      sendJson(response, 500, { error: { message: 'fake LLM server: no scripted answer left' } });
      return;
    }
    if ('status' in answer) {
      sendJson(response, answer.status, answer.body);
      return;
    }
    const usage = answer.usage ?? DEFAULT_USAGE;
    const headers = answer.headers ?? {};
    if (path.endsWith('/chat/completions')) {
      sendJson(response, 200, openAiChat(answer.text, usage, body), headers);
    } else if (path.endsWith('/messages')) {
      sendJson(response, 200, anthropicMessage(answer.text, usage, body), headers);
    } else if (path.includes(':generateContent')) {
      sendJson(response, 200, geminiContent(answer.text, usage), headers);
    } else {
      sendJson(response, 404, { error: { message: `fake LLM server: no route for ${path}` } });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...answers) => {
      queue.push(...answers);
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function openAiChat(text: string, usage: FakeUsage, body: Record<string, unknown>): unknown {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: usage.input + (usage.cacheRead ?? 0),
      completion_tokens: usage.output,
      total_tokens: usage.input + (usage.cacheRead ?? 0) + usage.output,
      prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
      ...(usage.cost === undefined ? {} : { cost: usage.cost }),
    },
  };
}

function anthropicMessage(text: string, usage: FakeUsage, body: Record<string, unknown>): unknown {
  // Without native structured output the Anthropic client asks for a forced `json` tool; answer through it.
  const tools = Array.isArray(body.tools) ? (body.tools as { name?: string }[]) : [];
  const wantsJsonTool = body.output_config === undefined && tools.some((tool) => tool.name === 'json');
  let content: unknown[] = [{ type: 'text', text }];
  if (wantsJsonTool) {
    try {
      content = [{ type: 'tool_use', id: 'toolu_fake', name: 'json', input: JSON.parse(text) }];
    } catch {
      // Invalid JSON stays text, so the client sees an invalid answer.
    }
  }
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: wantsJsonTool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      cache_read_input_tokens: usage.cacheRead ?? 0,
      cache_creation_input_tokens: usage.cacheWrite ?? 0,
    },
  };
}

function geminiContent(text: string, usage: FakeUsage): unknown {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.input + (usage.cacheRead ?? 0),
      candidatesTokenCount: usage.output,
      totalTokenCount: usage.input + (usage.cacheRead ?? 0) + usage.output,
      cachedContentTokenCount: usage.cacheRead ?? 0,
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
