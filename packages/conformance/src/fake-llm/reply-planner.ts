import type { AssistantReply, FakeLlmUsage, PlannedToolCall } from './assistant-reply.js';
import { type ConversationView, findDeclaredTool } from './conversation-view.js';
import type { ParsedFakeLlmTurn } from './fake-llm-script.js';
import { synthesizeFromSchema } from './json-schema.js';
import { mapFileWrites } from './tool-mapping.js';
import { findWorkspaceDirectory } from './workspace-directory.js';

/**
 * Decides what one scripted turn means for one request: an answer, a scripted HTTP error, a hang, or a
 * problem (the turn cannot be served to this request, e.g. it calls a tool the client did not declare).
 * A problem is answered with a 500 naming it, and the turn stays queued for the next request.
 */
export type TurnPlan =
  | { kind: 'reply'; reply: AssistantReply; strategy?: string }
  | { kind: 'error'; status: number; message: string; body: unknown; headers: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'problem'; message: string };

/** Server-wide settings the planner needs. */
export interface PlannerSettings {
  /** Usage for turns that do not set their own. */
  defaultUsage: FakeLlmUsage;
  /** Workspace directory from `startFakeLlm` options. */
  workspaceDir: string | undefined;
}

/** The answer when the script is exhausted: a short final text (or JSON when a schema is asked). */
export function planFinalAnswer(view: ConversationView, text: string, usage: FakeLlmUsage): AssistantReply {
  const answer =
    view.responseSchema === undefined ? text : JSON.stringify(synthesizeFromSchema(view.responseSchema));
  return { text: answer, toolCalls: [], finish: 'stop', usage };
}

/** What `turn` means for the request seen as `view`. */
export function planTurn(
  turn: ParsedFakeLlmTurn,
  view: ConversationView,
  settings: PlannerSettings,
): TurnPlan {
  const usage = mergeUsage(settings.defaultUsage, 'usage' in turn ? turn.usage : undefined);
  const reply = (text: string, toolCalls: PlannedToolCall[] = [], strategy?: string): TurnPlan => ({
    kind: 'reply',
    reply: { text, toolCalls, finish: toolCalls.length > 0 ? 'tool-calls' : 'stop', usage },
    ...(strategy === undefined ? {} : { strategy }),
  });

  if ('hang' in turn) return { kind: 'hang' };
  if ('error' in turn) {
    const message = turn.error.message ?? `Scripted error ${turn.error.status} from the fake LLM`;
    return {
      kind: 'error',
      status: turn.error.status,
      message,
      body: turn.error.body,
      headers: turn.error.headers ?? {},
    };
  }
  if ('truncate' in turn) {
    return {
      kind: 'reply',
      reply: { text: turn.text ?? 'This answer was cut short by', toolCalls: [], finish: 'length', usage },
    };
  }
  if ('toolCall' in turn || 'toolCalls' in turn) {
    const scripted = 'toolCall' in turn ? [turn.toolCall] : turn.toolCalls;
    const calls: PlannedToolCall[] = [];
    for (const call of scripted) {
      const planned = planExplicitCall(call.name, call.input, view);
      if (typeof planned === 'string') return { kind: 'problem', message: planned };
      calls.push(planned);
    }
    return reply(turn.text ?? '', calls);
  }
  if ('writeFile' in turn || 'writeFiles' in turn) {
    const files = 'writeFile' in turn ? [turn.writeFile] : turn.writeFiles;
    const workspaceDir = turn.workspaceDir ?? settings.workspaceDir ?? findWorkspaceDirectory(view);
    const mapping = mapFileWrites(files, view.tools, { via: turn.via, workspaceDir });
    if (!mapping.ok) return { kind: 'problem', message: mapping.problem };
    return reply(turn.text ?? '', mapping.toolCalls, mapping.strategy);
  }
  if ('verdict' in turn || 'json' in turn) {
    const value = quoteLastToolResult('verdict' in turn ? turn.verdict : turn.json, view);
    const forced = forcedTool(view, value);
    if (forced !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return reply('', [{ name: forced, kind: 'function', input: value as Record<string, unknown> }]);
    }
    return reply(JSON.stringify(value));
  }
  return reply(turn.text);
}

/** `base` with every count that `override` sets. */
export function mergeUsage(base: FakeLlmUsage, override: Partial<FakeLlmUsage> | undefined): FakeLlmUsage {
  const merged = { ...base };
  for (const key of ['input', 'output', 'cached', 'cacheWrite'] as const) {
    const value = override?.[key];
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

/**
 * The tool a structured answer must go through when the client forces one. When a tool call is required
 * and several tools are declared (the AI SDK's Anthropic JSON tool beside a judge's read-only tools), it is
 * the one tool whose schema the answer fits: every required property present, no property it lacks.
 */
function forcedTool(view: ConversationView, value: unknown): string | undefined {
  const choice = view.toolChoice;
  if (choice.mode === 'tool') return findDeclaredTool(view, choice.name)?.name;
  if (choice.mode !== 'required') return undefined;
  if (view.tools.length === 1) return view.tools[0]?.name;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const fitting = view.tools.filter((tool) => {
    const properties = tool.schema?.properties;
    if (typeof properties !== 'object' || properties === null) return false;
    const required = Array.isArray(tool.schema?.required) ? (tool.schema.required as unknown[]) : [];
    return required.every((key) => keys.includes(String(key))) && keys.every((key) => key in properties);
  });
  return fitting.length === 1 ? fitting[0]?.name : undefined;
}

/** Replaced, in the strings of a `verdict` or `json` turn, by the text of the conversation's latest tool result. */
export const LAST_TOOL_RESULT = '{{lastToolResult}}';

/**
 * `value` with `{{lastToolResult}}` in its strings replaced by the latest tool result the client sent, so a
 * scripted judge can answer with what its tool call actually returned (and a test can tell it did).
 */
function quoteLastToolResult(value: unknown, view: ConversationView): unknown {
  const serialised = JSON.stringify(value);
  if (serialised === undefined || !serialised.includes(LAST_TOOL_RESULT)) return value;
  const latest = view.messages.filter((message) => message.role === 'tool').at(-1)?.text ?? '';
  const replace = (entry: unknown): unknown => {
    if (typeof entry === 'string') return entry.split(LAST_TOOL_RESULT).join(latest);
    if (Array.isArray(entry)) return entry.map(replace);
    if (typeof entry === 'object' && entry !== null) {
      return Object.fromEntries(Object.entries(entry).map(([key, inner]) => [key, replace(inner)]));
    }
    return entry;
  };
  return replace(value);
}

function planExplicitCall(
  name: string,
  input: Record<string, unknown> | string,
  view: ConversationView,
): PlannedToolCall | string {
  const tool = findDeclaredTool(view, name);
  if (tool === undefined) {
    const declared = view.tools.length === 0 ? 'no tools' : view.tools.map((entry) => entry.name).join(', ');
    return `the script calls tool "${name}", which the client did not declare (it declared ${declared})`;
  }
  if (tool.kind === 'custom') {
    return { name, kind: 'custom', input: typeof input === 'string' ? input : JSON.stringify(input) };
  }
  if (typeof input !== 'string') return { name, kind: 'function', input };
  try {
    const parsed: unknown = JSON.parse(input);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return { name, kind: 'function', input: parsed as Record<string, unknown> };
    }
  } catch {
    // fall through to the problem below
  }
  return `the script gives tool "${name}" a text input, but it is a function tool that takes a JSON object`;
}
