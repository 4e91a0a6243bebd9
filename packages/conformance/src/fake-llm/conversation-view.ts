/**
 * The dialect-neutral view of one request that the script, the side-request rules and the tool mapping
 * look at. Each dialect reader (`dialect-*.ts`) builds one from its own wire format, so the rest of the
 * fake LLM never has to know whether a tool arrived as an OpenAI `function`, an Anthropic `input_schema`
 * or a Gemini `functionDeclaration`.
 */

/** A JSON schema exactly as the client sent it (Gemini's OpenAPI flavour uses upper-case `type` values). */
export type JsonSchema = Record<string, unknown>;

/** One tool the client declared in its request. */
export interface DeclaredTool {
  /** The name the model must use to call it, e.g. `Write`, `apply_patch`, `run_shell_command`. */
  name: string;
  /**
   * `function`: arguments are a JSON object checked against `schema`.
   * `custom`: free-form text input (OpenAI Responses custom tools, e.g. Codex's freeform `apply_patch`).
   * `provider`: a provider-defined tool without a schema (Anthropic `bash_*` / `text_editor_*`, web search).
   */
  kind: 'function' | 'custom' | 'provider';
  /** The tool's description, empty when none was sent. */
  description: string;
  /** The argument schema for `function` tools; `undefined` otherwise. */
  schema: JsonSchema | undefined;
  /** The wire `type` of a provider-defined tool, e.g. `text_editor_20250728`; `undefined` otherwise. */
  providerType: string | undefined;
}

/** What the client allowed or forced: any tool, no tool, some tool, or one named tool. */
export type ToolChoice = { mode: 'auto' | 'none' | 'required' } | { mode: 'tool'; name: string };

/** One message of the conversation, reduced to its role and its text. */
export interface ConversationMessage {
  /** `tool` marks tool results (OpenAI `tool` messages, Anthropic `tool_result`, Gemini `functionResponse`). */
  role: 'user' | 'assistant' | 'tool';
  /** All text of the message joined with newlines; tool calls appear as `[tool call NAME]`. */
  text: string;
}

/** The dialect-neutral view of one generation request. */
export interface ConversationView {
  /** The model id the client asked for; any id is accepted. */
  model: string;
  /** Whether the client asked for a streamed answer. */
  stream: boolean;
  /** System and developer instructions, joined with newlines. */
  system: string;
  /** The conversation in order. */
  messages: ConversationMessage[];
  /** The tools the client declared, in declaration order. */
  tools: DeclaredTool[];
  /** The client's tool choice. */
  toolChoice: ToolChoice;
  /** The JSON schema of a structured-output request (`response_format`, `output_config`, `responseSchema`). */
  responseSchema: JsonSchema | undefined;
  /** The output token limit the client set, if any. */
  maxOutputTokens: number | undefined;
}

/** The text of the last user message that is not a tool result, or an empty string. */
export function lastUserText(view: ConversationView): string {
  for (let index = view.messages.length - 1; index >= 0; index -= 1) {
    const message = view.messages[index];
    if (message?.role === 'user') return message.text;
  }
  return '';
}

/**
 * The text of the final message when it is a user message, otherwise an empty string. Side-request rules
 * use it, so a request that continues the agent loop with tool results never looks like a side request.
 */
export function finalUserText(view: ConversationView): string {
  const last = view.messages[view.messages.length - 1];
  return last?.role === 'user' ? last.text : '';
}

/** The system text followed by every message's text, for searching the whole request. */
export function conversationText(view: ConversationView): string {
  return [view.system, ...view.messages.map((message) => message.text)].join('\n');
}

/** The declared tool with exactly this name, if any. */
export function findDeclaredTool(view: ConversationView, name: string): DeclaredTool | undefined {
  return view.tools.find((tool) => tool.name === name);
}
