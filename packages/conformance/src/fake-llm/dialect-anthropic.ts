import type { AssistantReply, FakeLlmUsage } from './assistant-reply.js';
import { splitIntoPieces, uncachedInput } from './assistant-reply.js';
import type { ConversationMessage, DeclaredTool, ToolChoice } from './conversation-view.js';
import type { Dialect, ReplyContext } from './dialect.js';
import { asArray, asNumber, asRecord, asString } from './json-values.js';
import { endEventStream, startEventStream, writeEvent, writeJson } from './sse.js';

/**
 * Anthropic Messages (`POST /v1/messages`, Claude Code adds `?beta=true`), as used by Claude Code and
 * `@ai-sdk/anthropic`. A stream is `message_start`, `ping`, per block `content_block_start` /
 * `content_block_delta` (`text_delta` or `input_json_delta`) / `content_block_stop`, then `message_delta`
 * with `stop_reason` and usage, then `message_stop`. Structured output arrives as `output_config.format`
 * (or the older `output_format`) and is answered as JSON text.
 */

function blocksText(content: unknown): { text: string; toolResultsOnly: boolean } {
  if (typeof content === 'string') return { text: content, toolResultsOnly: false };
  const texts: string[] = [];
  let sawOther = false;
  let sawToolResult = false;
  for (const entry of asArray(content)) {
    const block = asRecord(entry);
    const type = asString(block?.type);
    if (type === 'tool_result') {
      sawToolResult = true;
      texts.push(blocksText(block?.content).text);
    } else if (type === 'tool_use') {
      sawOther = true;
      texts.push(`[tool call ${asString(block?.name) ?? '?'}]`);
    } else {
      sawOther = true;
      const text = asString(block?.text);
      if (text !== undefined) texts.push(text);
    }
  }
  return {
    text: texts.filter((text) => text.length > 0).join('\n'),
    toolResultsOnly: sawToolResult && !sawOther,
  };
}

function readMessages(body: Record<string, unknown>): ConversationMessage[] {
  return asArray(body.messages).map((entry) => {
    const message = asRecord(entry);
    const { text, toolResultsOnly } = blocksText(message?.content);
    if (message?.role === 'assistant') return { role: 'assistant', text };
    return { role: toolResultsOnly ? 'tool' : 'user', text };
  });
}

function readTools(body: Record<string, unknown>): DeclaredTool[] {
  const tools: DeclaredTool[] = [];
  for (const entry of asArray(body.tools)) {
    const tool = asRecord(entry);
    const name = asString(tool?.name);
    if (name === undefined) continue;
    const type = asString(tool?.type);
    const provider = type !== undefined && type !== 'custom';
    tools.push({
      name,
      kind: provider ? 'provider' : 'function',
      description: asString(tool?.description) ?? '',
      schema: provider ? undefined : asRecord(tool?.input_schema),
      providerType: provider ? type : undefined,
    });
  }
  return tools;
}

function readToolChoice(value: unknown): ToolChoice {
  const choice = asRecord(value);
  if (choice?.type === 'none') return { mode: 'none' };
  if (choice?.type === 'any') return { mode: 'required' };
  const name = asString(choice?.name);
  return choice?.type === 'tool' && name !== undefined ? { mode: 'tool', name } : { mode: 'auto' };
}

function usageBody(usage: FakeLlmUsage, output: number): Record<string, unknown> {
  return {
    input_tokens: uncachedInput(usage),
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cached,
    output_tokens: output,
  };
}

const STOP_REASONS = { stop: 'end_turn', 'tool-calls': 'tool_use', length: 'max_tokens' } as const;

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

function buildBlocks(reply: AssistantReply, context: ReplyContext): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (reply.text.length > 0 || reply.toolCalls.length === 0) blocks.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls) {
    const input = typeof call.input === 'string' ? { input: call.input } : call.input;
    blocks.push({ type: 'tool_use', id: context.nextId('toolu_fake_'), name: call.name, input });
  }
  return blocks;
}

function writeStream(reply: AssistantReply, blocks: ContentBlock[], id: string, context: ReplyContext): void {
  const { response } = context;
  const emit = (type: string, fields: Record<string, unknown> = {}) =>
    writeEvent(response, { type, ...fields }, type);
  startEventStream(response, { 'request-id': context.nextId('req_fake_') });
  emit('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: context.view.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usageBody(reply.usage, 1),
    },
  });
  emit('ping');
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of splitIntoPieces(block.text)) {
        emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
      }
    } else {
      emit('content_block_start', { index, content_block: { ...block, input: {} } });
      for (const partial of ['', ...splitIntoPieces(JSON.stringify(block.input), 2)]) {
        emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
      }
    }
    emit('content_block_stop', { index });
  });
  emit('message_delta', {
    delta: { stop_reason: STOP_REASONS[reply.finish], stop_sequence: null },
    usage: usageBody(reply.usage, reply.usage.output),
  });
  emit('message_stop');
  endEventStream(response);
}

/** The Anthropic error `type` for an HTTP status. */
function anthropicErrorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status < 500) return 'invalid_request_error';
  return 'api_error';
}

/** The Anthropic Messages dialect. */
export const anthropicDialect: Dialect = {
  name: 'anthropic',
  readRequest(body) {
    const system = typeof body.system === 'string' ? body.system : blocksText(body.system).text;
    const format = asRecord(asRecord(body.output_config)?.format) ?? asRecord(body.output_format);
    return {
      model: asString(body.model) ?? 'fake-model',
      stream: body.stream === true,
      system,
      messages: readMessages(body),
      tools: readTools(body),
      toolChoice: readToolChoice(body.tool_choice),
      responseSchema: format?.type === 'json_schema' ? asRecord(format.schema) : undefined,
      maxOutputTokens: asNumber(body.max_tokens),
    };
  },
  writeReply(reply, context) {
    const id = context.nextId('msg_fake_');
    const blocks = buildBlocks(reply, context);
    if (context.view.stream) {
      writeStream(reply, blocks, id, context);
      return;
    }
    writeJson(
      context.response,
      200,
      {
        id,
        type: 'message',
        role: 'assistant',
        model: context.view.model,
        content: blocks,
        stop_reason: STOP_REASONS[reply.finish],
        stop_sequence: null,
        usage: usageBody(reply.usage, reply.usage.output),
      },
      { 'request-id': context.nextId('req_fake_') },
    );
  },
  writeError(response, status, message, headers) {
    writeJson(
      response,
      status,
      { type: 'error', error: { type: anthropicErrorType(status), message } },
      headers,
    );
  },
};
