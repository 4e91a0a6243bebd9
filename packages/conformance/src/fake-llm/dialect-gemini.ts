import type { AssistantReply, FakeLlmUsage } from './assistant-reply.js';
import { splitIntoPieces } from './assistant-reply.js';
import type { ConversationMessage, DeclaredTool, ToolChoice } from './conversation-view.js';
import type { Dialect, ReplyContext } from './dialect.js';
import { asArray, asNumber, asRecord, asString } from './json-values.js';
import { endEventStream, startEventStream, writeEvent, writeJson } from './sse.js';

/**
 * Gemini API (`POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent`), as used by
 * Gemini CLI and `@ai-sdk/google`. The model and the streaming mode live in the path. Streams are `data:`
 * chunks with `alt=sse` (a JSON array without it); the last chunk carries `finishReason` and
 * `usageMetadata`. Tool calls are `functionCall` parts; Gemini reports `STOP` for them too.
 */

function partsText(parts: unknown): { text: string; functionResponsesOnly: boolean } {
  const texts: string[] = [];
  let sawOther = false;
  let sawResponse = false;
  for (const entry of asArray(parts)) {
    const part = asRecord(entry);
    const call = asRecord(part?.functionCall);
    const result = asRecord(part?.functionResponse);
    if (result !== undefined) {
      sawResponse = true;
      texts.push(JSON.stringify(result.response ?? {}));
    } else if (call !== undefined) {
      sawOther = true;
      texts.push(`[tool call ${asString(call.name) ?? '?'}]`);
    } else {
      sawOther = true;
      const text = asString(part?.text);
      if (text !== undefined && part?.thought !== true) texts.push(text);
    }
  }
  return {
    text: texts.filter((text) => text.length > 0).join('\n'),
    functionResponsesOnly: sawResponse && !sawOther,
  };
}

function readContents(body: Record<string, unknown>): ConversationMessage[] {
  return asArray(body.contents).map((entry) => {
    const content = asRecord(entry);
    const { text, functionResponsesOnly } = partsText(content?.parts);
    if (content?.role === 'model') return { role: 'assistant', text };
    return { role: functionResponsesOnly ? 'tool' : 'user', text };
  });
}

function readSystem(value: unknown): string {
  if (typeof value === 'string') return value;
  return partsText(asRecord(value)?.parts).text;
}

function readTools(body: Record<string, unknown>): DeclaredTool[] {
  const tools: DeclaredTool[] = [];
  for (const entry of asArray(body.tools)) {
    const group = asRecord(entry);
    for (const declaration of asArray(group?.functionDeclarations ?? group?.function_declarations)) {
      const fn = asRecord(declaration);
      const name = asString(fn?.name);
      if (name === undefined) continue;
      tools.push({
        name,
        kind: 'function',
        description: asString(fn?.description) ?? '',
        schema: asRecord(fn?.parametersJsonSchema) ?? asRecord(fn?.parameters),
        providerType: undefined,
      });
    }
  }
  return tools;
}

function readToolChoice(body: Record<string, unknown>): ToolChoice {
  const config = asRecord(asRecord(body.toolConfig)?.functionCallingConfig);
  const mode = asString(config?.mode)?.toUpperCase();
  if (mode === 'NONE') return { mode: 'none' };
  if (mode === 'ANY' || mode === 'VALIDATED') {
    const allowed = asArray(config?.allowedFunctionNames).filter(
      (name): name is string => typeof name === 'string',
    );
    return allowed.length === 1 && allowed[0] !== undefined
      ? { mode: 'tool', name: allowed[0] }
      : { mode: 'required' };
  }
  return { mode: 'auto' };
}

function usageMetadata(usage: FakeLlmUsage): Record<string, unknown> {
  return {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output,
    cachedContentTokenCount: usage.cached,
    totalTokenCount: usage.input + usage.output,
  };
}

const FINISH_REASONS = { stop: 'STOP', 'tool-calls': 'STOP', length: 'MAX_TOKENS' } as const;

function chunkBody(parts: unknown[], context: ReplyContext, responseId: string): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0 }],
    modelVersion: context.view.model,
    responseId,
  };
}

function buildChunks(reply: AssistantReply, context: ReplyContext): Record<string, unknown>[] {
  const responseId = context.nextId('fake-response-');
  const callParts = reply.toolCalls.map((call) => ({
    functionCall: {
      name: call.name,
      args: typeof call.input === 'string' ? { input: call.input } : call.input,
    },
  }));
  const textParts = reply.text.length > 0 || callParts.length === 0 ? [{ text: reply.text }] : [];
  // A whole answer is one response; a stream sends the text in pieces, then the calls.
  const chunks = context.view.stream
    ? splitIntoPieces(reply.text).map((text) => chunkBody([{ text }], context, responseId))
    : [chunkBody([...textParts, ...callParts], context, responseId)];
  if (context.view.stream && callParts.length > 0) chunks.push(chunkBody(callParts, context, responseId));
  if (chunks.length === 0) chunks.push(chunkBody([{ text: '' }], context, responseId));
  const last = chunks[chunks.length - 1];
  const candidate = asRecord(asArray(last?.candidates)[0]);
  if (last !== undefined && candidate !== undefined) {
    candidate.finishReason = FINISH_REASONS[reply.finish];
    last.usageMetadata = usageMetadata(reply.usage);
  }
  return chunks;
}

/** Gemini error `status` names for HTTP statuses. */
function geminiStatus(status: number): string {
  if (status === 429) return 'RESOURCE_EXHAUSTED';
  if (status === 400) return 'INVALID_ARGUMENT';
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'PERMISSION_DENIED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 503) return 'UNAVAILABLE';
  if (status === 504) return 'DEADLINE_EXCEEDED';
  return status < 500 ? 'FAILED_PRECONDITION' : 'INTERNAL';
}

/** The Gemini dialect. */
export const geminiDialect: Dialect = {
  name: 'gemini',
  readRequest(body, route) {
    const config = asRecord(body.generationConfig);
    const schema = asRecord(config?.responseJsonSchema) ?? asRecord(config?.responseSchema);
    return {
      model: route.pathModel ?? 'fake-model',
      stream: route.pathStream === true,
      system: readSystem(body.systemInstruction ?? body.system_instruction),
      messages: readContents(body),
      tools: readTools(body),
      toolChoice: readToolChoice(body),
      responseSchema: schema,
      maxOutputTokens: asNumber(config?.maxOutputTokens),
    };
  },
  writeReply(reply, context) {
    const chunks = buildChunks(reply, context);
    if (!context.view.stream) {
      writeJson(context.response, 200, chunks[0]);
      return;
    }
    if (context.query.get('alt') !== 'sse') {
      writeJson(context.response, 200, chunks);
      return;
    }
    startEventStream(context.response);
    for (const chunk of chunks) writeEvent(context.response, chunk);
    endEventStream(context.response);
  },
  writeError(response, status, message, headers) {
    writeJson(response, status, { error: { code: status, message, status: geminiStatus(status) } }, headers);
  },
};
