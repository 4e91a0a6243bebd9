import type { AssistantReply, FakeLlmUsage } from './assistant-reply.js';
import { splitIntoPieces, toolCallArguments } from './assistant-reply.js';
import type { ConversationMessage, DeclaredTool, ToolChoice } from './conversation-view.js';
import type { Dialect, ReplyContext } from './dialect.js';
import { openAiErrorType } from './dialect-openai-chat.js';
import { asArray, asNumber, asRecord, asString } from './json-values.js';
import { endEventStream, startEventStream, writeEvent, writeJson } from './sse.js';

/**
 * OpenAI Responses (`POST /v1/responses`), the only wire Codex speaks and what `createOpenAI()(id)` /
 * `.responses(id)` call. Output items are `message`, `function_call` and `custom_tool_call` (Codex's
 * freeform `apply_patch`). A stream is `response.created`, `response.in_progress`, then per item
 * `response.output_item.added` … deltas … `response.output_item.done`, and finally `response.completed`
 * (or `response.incomplete` for a truncated answer) carrying the usage.
 */

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => asString(asRecord(part)?.text) ?? '')
    .filter((text) => text.length > 0)
    .join('\n');
}

function readInput(body: Record<string, unknown>): { system: string[]; messages: ConversationMessage[] } {
  const system = [asString(body.instructions) ?? ''].filter((text) => text.length > 0);
  const messages: ConversationMessage[] = [];
  if (typeof body.input === 'string') return { system, messages: [{ role: 'user', text: body.input }] };
  for (const entry of asArray(body.input)) {
    const item = asRecord(entry);
    const type = asString(item?.type) ?? 'message';
    if (type === 'message') {
      const role = asString(item?.role);
      const text = partsText(item?.content);
      if (role === 'system' || role === 'developer') system.push(text);
      else messages.push({ role: role === 'assistant' ? 'assistant' : 'user', text });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      messages.push({ role: 'assistant', text: `[tool call ${asString(item?.name) ?? '?'}]` });
    } else if (type.endsWith('_output')) {
      messages.push({ role: 'tool', text: partsText(item?.output) });
    }
  }
  return { system, messages };
}

function readTools(body: Record<string, unknown>): DeclaredTool[] {
  const tools: DeclaredTool[] = [];
  for (const entry of asArray(body.tools)) {
    const tool = asRecord(entry);
    const type = asString(tool?.type) ?? 'function';
    const name = asString(tool?.name) ?? type;
    const kind = type === 'function' ? 'function' : type === 'custom' ? 'custom' : 'provider';
    tools.push({
      name,
      kind,
      description: asString(tool?.description) ?? '',
      schema: kind === 'function' ? asRecord(tool?.parameters) : undefined,
      providerType: kind === 'provider' ? type : undefined,
    });
  }
  return tools;
}

function readToolChoice(value: unknown): ToolChoice {
  if (value === 'none' || value === 'required') return { mode: value };
  const name = asString(asRecord(value)?.name);
  return name === undefined ? { mode: 'auto' } : { mode: 'tool', name };
}

function usageBody(usage: FakeLlmUsage): Record<string, unknown> {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cached },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
}

type OutputItem = Record<string, unknown> & { id: string; type: string };

function buildOutputItems(reply: AssistantReply, context: ReplyContext): OutputItem[] {
  const items: OutputItem[] = [];
  if (reply.text.length > 0 || reply.toolCalls.length === 0) {
    items.push({
      id: context.nextId('msg_fake_'),
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [], logprobs: [] }],
    });
  }
  for (const call of reply.toolCalls) {
    const callId = context.nextId('call_fake_');
    items.push(
      call.kind === 'custom'
        ? {
            id: context.nextId('ctc_fake_'),
            type: 'custom_tool_call',
            status: 'completed',
            call_id: callId,
            name: call.name,
            input: toolCallArguments(call),
          }
        : {
            id: context.nextId('fc_fake_'),
            type: 'function_call',
            status: 'completed',
            call_id: callId,
            name: call.name,
            arguments: toolCallArguments(call),
          },
    );
  }
  return items;
}

function responseObject(
  id: string,
  reply: AssistantReply | undefined,
  output: OutputItem[],
  context: ReplyContext,
): Record<string, unknown> {
  const truncated = reply?.finish === 'length';
  return {
    id,
    object: 'response',
    created_at: context.now,
    status: reply === undefined ? 'in_progress' : truncated ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: truncated ? { reason: 'max_output_tokens' } : null,
    instructions: context.body.instructions ?? null,
    max_output_tokens: context.body.max_output_tokens ?? null,
    model: context.view.model,
    output,
    parallel_tool_calls: context.body.parallel_tool_calls ?? true,
    previous_response_id: null,
    store: context.body.store ?? false,
    temperature: 1,
    text: context.body.text ?? { format: { type: 'text' } },
    tool_choice: context.body.tool_choice ?? 'auto',
    tools: context.body.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: reply === undefined ? null : usageBody(reply.usage),
    metadata: {},
  };
}

function writeStream(reply: AssistantReply, items: OutputItem[], id: string, context: ReplyContext): void {
  const { response } = context;
  let sequence = 0;
  const emit = (type: string, fields: Record<string, unknown>) => {
    writeEvent(response, { type, sequence_number: sequence, ...fields }, type);
    sequence += 1;
  };
  startEventStream(response);
  emit('response.created', { response: responseObject(id, undefined, [], context) });
  emit('response.in_progress', { response: responseObject(id, undefined, [], context) });
  items.forEach((item, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex };
    if (item.type === 'message') {
      const text = reply.text;
      const emptyPart = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      emit('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', content: [] },
      });
      emit('response.content_part.added', { ...at, content_index: 0, part: emptyPart });
      for (const delta of splitIntoPieces(text)) {
        emit('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
      }
      emit('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { ...at, content_index: 0, part: { ...emptyPart, text } });
    } else if (item.type === 'function_call') {
      const args = String(item.arguments);
      emit('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const delta of splitIntoPieces(args, 2))
        emit('response.function_call_arguments.delta', { ...at, delta });
      emit('response.function_call_arguments.done', { ...at, arguments: args });
    } else {
      const input = String(item.input);
      emit('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', input: '' },
      });
      for (const delta of splitIntoPieces(input, 2))
        emit('response.custom_tool_call_input.delta', { ...at, delta });
      emit('response.custom_tool_call_input.done', { ...at, input });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  const finalType = reply.finish === 'length' ? 'response.incomplete' : 'response.completed';
  emit(finalType, { response: responseObject(id, reply, items, context) });
  endEventStream(response);
}

/** The OpenAI Responses dialect. */
export const openAiResponsesDialect: Dialect = {
  name: 'openai-responses',
  readRequest(body) {
    const { system, messages } = readInput(body);
    const format = asRecord(asRecord(body.text)?.format);
    return {
      model: asString(body.model) ?? 'fake-model',
      stream: body.stream === true,
      system: system.join('\n'),
      messages,
      tools: readTools(body),
      toolChoice: readToolChoice(body.tool_choice),
      responseSchema: format?.type === 'json_schema' ? asRecord(format.schema) : undefined,
      maxOutputTokens: asNumber(body.max_output_tokens),
    };
  },
  writeReply(reply, context) {
    const id = context.nextId('resp_fake_');
    const items = buildOutputItems(reply, context);
    if (context.view.stream) writeStream(reply, items, id, context);
    else writeJson(context.response, 200, responseObject(id, reply, items, context));
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
