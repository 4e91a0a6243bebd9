import type { AssistantReply, FakeLlmUsage } from './assistant-reply.js';
import { splitIntoPieces, toolCallArguments } from './assistant-reply.js';
import type { ConversationMessage, DeclaredTool, ToolChoice } from './conversation-view.js';
import type { Dialect, ReplyContext } from './dialect.js';
import { asArray, asNumber, asRecord, asString } from './json-values.js';
import { endEventStream, startEventStream, writeEvent, writeJson } from './sse.js';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`), as used by `@ai-sdk/openai-compatible`,
 * `createOpenAI().chat()`, OpenCode custom providers, Qwen Code and Copilot BYOK. Streams are `data:`
 * chunks ending in `data: [DONE]`; the usage chunk (empty `choices`) comes only when the request sets
 * `stream_options.include_usage`, as with the real API.
 */

/** The text of a Chat message `content`: a string or an array of `{ type: 'text', text }` parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => asString(asRecord(part)?.text) ?? '')
    .filter((text) => text.length > 0)
    .join('\n');
}

function readMessages(body: Record<string, unknown>): { system: string[]; messages: ConversationMessage[] } {
  const system: string[] = [];
  const messages: ConversationMessage[] = [];
  for (const entry of asArray(body.messages)) {
    const message = asRecord(entry);
    const role = asString(message?.role);
    const text = contentText(message?.content);
    if (role === 'system' || role === 'developer') {
      system.push(text);
    } else if (role === 'tool' || role === 'function') {
      messages.push({ role: 'tool', text });
    } else if (role === 'assistant') {
      const calls = asArray(message?.tool_calls).map(
        (call) => `[tool call ${asString(asRecord(asRecord(call)?.function)?.name) ?? '?'}]`,
      );
      messages.push({
        role: 'assistant',
        text: [text, ...calls].filter((part) => part.length > 0).join('\n'),
      });
    } else {
      messages.push({ role: 'user', text });
    }
  }
  return { system, messages };
}

function readTools(body: Record<string, unknown>): DeclaredTool[] {
  const tools: DeclaredTool[] = [];
  for (const entry of asArray(body.tools)) {
    const tool = asRecord(entry);
    const definition = asRecord(tool?.function) ?? asRecord(tool?.custom);
    const name = asString(definition?.name);
    if (name === undefined) continue;
    tools.push({
      name,
      kind: tool?.type === 'custom' ? 'custom' : 'function',
      description: asString(definition?.description) ?? '',
      schema: asRecord(definition?.parameters),
      providerType: undefined,
    });
  }
  return tools;
}

function readToolChoice(value: unknown): ToolChoice {
  if (value === 'none' || value === 'required') return { mode: value };
  const name =
    asString(asRecord(asRecord(value)?.function)?.name) ?? asString(asRecord(asRecord(value)?.custom)?.name);
  return name === undefined ? { mode: 'auto' } : { mode: 'tool', name };
}

function usageBody(usage: FakeLlmUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

const FINISH_REASONS = { stop: 'stop', 'tool-calls': 'tool_calls', length: 'length' } as const;

function wireToolCalls(reply: AssistantReply, context: ReplyContext): Record<string, unknown>[] {
  return reply.toolCalls.map((call) =>
    call.kind === 'custom'
      ? { id: context.nextId('call_fake_'), type: 'custom', custom: { name: call.name, input: call.input } }
      : {
          id: context.nextId('call_fake_'),
          type: 'function',
          function: { name: call.name, arguments: toolCallArguments(call) },
        },
  );
}

function writeStream(reply: AssistantReply, context: ReplyContext): void {
  const { response } = context;
  const includeUsage = asRecord(context.body.stream_options)?.include_usage === true;
  const base = {
    id: context.nextId('chatcmpl-fake-'),
    object: 'chat.completion.chunk',
    created: context.now,
    model: context.view.model,
    system_fingerprint: 'fake-llm',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => {
    const choices = [{ index: 0, delta, logprobs: null, finish_reason: finish }];
    writeEvent(response, { ...base, choices, ...(includeUsage ? { usage: null } : {}) });
  };
  startEventStream(response);
  chunk({ role: 'assistant', content: '' });
  for (const piece of splitIntoPieces(reply.text)) chunk({ content: piece });
  reply.toolCalls.forEach((call, index) => {
    const id = context.nextId('call_fake_');
    if (call.kind === 'custom') {
      chunk({ tool_calls: [{ index, id, type: 'custom', custom: { name: call.name, input: call.input } }] });
      return;
    }
    chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of splitIntoPieces(toolCallArguments(call), 2)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  chunk({}, FINISH_REASONS[reply.finish]);
  if (includeUsage) writeEvent(response, { ...base, choices: [], usage: usageBody(reply.usage) });
  writeEvent(response, '[DONE]');
  endEventStream(response);
}

/** The OpenAI Chat Completions dialect. */
export const openAiChatDialect: Dialect = {
  name: 'openai-chat',
  readRequest(body) {
    const { system, messages } = readMessages(body);
    const format = asRecord(body.response_format);
    return {
      model: asString(body.model) ?? 'fake-model',
      stream: body.stream === true,
      system: system.join('\n'),
      messages,
      tools: readTools(body),
      toolChoice: readToolChoice(body.tool_choice),
      responseSchema:
        format?.type === 'json_schema' ? asRecord(asRecord(format.json_schema)?.schema) : undefined,
      maxOutputTokens: asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens),
    };
  },
  writeReply(reply, context) {
    if (context.view.stream) {
      writeStream(reply, context);
      return;
    }
    const toolCalls = wireToolCalls(reply, context);
    writeJson(context.response, 200, {
      id: context.nextId('chatcmpl-fake-'),
      object: 'chat.completion',
      created: context.now,
      model: context.view.model,
      system_fingerprint: 'fake-llm',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text.length > 0 || toolCalls.length === 0 ? reply.text : null,
            refusal: null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          logprobs: null,
          finish_reason: FINISH_REASONS[reply.finish],
        },
      ],
      usage: usageBody(reply.usage),
    });
  },
  writeError(response, status, message, headers) {
    writeJson(
      response,
      status,
      { error: { message, type: openAiErrorType(status), param: null, code: null } },
      headers,
    );
  },
};

/** The OpenAI error `type` for an HTTP status (shared with the Responses dialect). */
export function openAiErrorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 401 || status === 403) return 'authentication_error';
  if (status === 404) return 'not_found_error';
  if (status < 500) return 'invalid_request_error';
  return 'server_error';
}
