import { type ConversationView, finalUserText } from './conversation-view.js';
import { type SchemaValueHints, schemaProperties, synthesizeFromSchema } from './json-schema.js';

/**
 * Side requests are the calls a client makes besides the agent loop: session titles, conversation
 * summaries and compaction, Gemini CLI's routing and loop checks, Claude Code's quota and warm-up probes.
 * They are answered here without consuming the script, and recorded with `side: true`.
 *
 * The rules are a plain table, tried in order; the first match answers. To teach the fake LLM a new
 * side request, add a rule (or pass one in `startFakeLlm({ sideRequestRules })`): give it a name, say in
 * `description` which client sends it and how it is recognised, and keep `matches` narrow, since a false
 * match silently skips a scripted turn.
 */
export interface SideRequestRule {
  /** Recorded as `sideRule` on the request, e.g. `title`. */
  name: string;
  /** Which client sends it and how it is recognised. */
  description: string;
  /** Whether this request is that side request. */
  matches(view: ConversationView): boolean;
  /** The answer text (JSON text when the request asks for structured output). */
  answer(view: ConversationView): string;
}

/** Values for property names that side requests ask for in a JSON schema. */
export const sideRequestSchemaHints: SchemaValueHints = {
  // Gemini CLI router: keep the big model and a high complexity, so the full toolset stays in use.
  model_choice: 'pro',
  complexity_score: 100,
  // Gemini CLI next-speaker check: hand the turn back to the user, so the loop ends.
  next_speaker: 'user',
  // Gemini CLI loop detection: never report a loop.
  unproductive_state_confidence: 0,
  isNewTopic: false,
  title: 'Fake LLM session',
  summary: 'Fake LLM session summary.',
};

const SCHEMA_SIDE_PROPERTIES = [
  'model_choice',
  'complexity_score',
  'next_speaker',
  'unproductive_state_confidence',
];
const TITLE_REQUEST =
  /title generator|(?:generate|write) an? (?:[\w,-]+\s+){0,4}title|(?:thread|session|conversation) title|title for (?:this|the) (?:conversation|session|thread)/i;
const SUMMARY_REQUEST =
  /summari[sz](?:e|ing) (?:the |this )?(?:coding )?(?:conversations?|session)|summarize the user's primary intent|create a detailed summary of the conversation|context checkpoint compaction|summary of (?:the|this) conversation/i;

/** The answer for a side request: JSON from the request's schema if it has one, else the given text. */
export function answerSideRequest(view: ConversationView, text: string): string {
  if (view.responseSchema === undefined) return text;
  return JSON.stringify(synthesizeFromSchema(view.responseSchema, sideRequestSchemaHints));
}

function instructionText(view: ConversationView): string {
  return `${view.system}\n${finalUserText(view)}`;
}

/** The rules every fake LLM starts with, in the order they are tried. */
export const builtInSideRequestRules: readonly SideRequestRule[] = [
  {
    name: 'warmup',
    description: 'Claude Code warms up its sub-agents with a single user message "Warmup".',
    matches: (view) => finalUserText(view).trim() === 'Warmup',
    answer: () => 'Ready.',
  },
  {
    name: 'quota-check',
    description: 'Claude Code probes its quota with max_tokens 1 and the message "quota".',
    matches: (view) =>
      (view.maxOutputTokens !== undefined && view.maxOutputTokens <= 1) ||
      finalUserText(view).trim() === 'quota',
    answer: () => 'ok',
  },
  {
    name: 'routing-check',
    description:
      'Gemini CLI asks a JSON schema with model_choice or complexity_score (router), next_speaker ' +
      '(next-speaker check) or unproductive_state_confidence (loop detection).',
    matches: (view) => {
      const properties = Object.keys(schemaProperties(view.responseSchema));
      return properties.some((name) => SCHEMA_SIDE_PROPERTIES.includes(name));
    },
    answer: (view) => answerSideRequest(view, '{}'),
  },
  {
    name: 'topic-detection',
    description:
      "Claude Code asks whether a message starts a new topic, as JSON with 'isNewTopic' and 'title'.",
    matches: (view) => view.tools.length === 0 && instructionText(view).includes('isNewTopic'),
    answer: () => JSON.stringify({ isNewTopic: false, title: null }),
  },
  {
    name: 'title',
    description:
      'Title generation (OpenCode "title generator", Claude Code session titles): no tools declared and the ' +
      'system prompt or final user message asks for a title.',
    matches: (view) => view.tools.length === 0 && TITLE_REQUEST.test(instructionText(view)),
    answer: (view) => answerSideRequest(view, 'Fake LLM session'),
  },
  {
    name: 'summary',
    description:
      'Conversation summaries and compaction (Claude Code /compact, Codex context checkpoint, OpenCode ' +
      'summarize agent, Gemini CLI session summary): the final user message asks to summarise the ' +
      'conversation, or the system prompt does and no tools are declared.',
    matches: (view) =>
      SUMMARY_REQUEST.test(finalUserText(view)) ||
      (view.tools.length === 0 && SUMMARY_REQUEST.test(view.system)),
    answer: (view) => answerSideRequest(view, '<summary>\nFake LLM session summary.\n</summary>'),
  },
  {
    name: 'bash-prefix',
    description: 'Claude Code asks a small model for the prefix of a Bash command (<policy_spec>, no tools).',
    matches: (view) => view.tools.length === 0 && /<policy_spec>|command prefix/i.test(instructionText(view)),
    answer: () => 'none',
  },
  {
    name: 'command-file-paths',
    description:
      'Claude Code asks a small model which files a finished command touched (<filepaths>, no tools).',
    matches: (view) =>
      view.tools.length === 0 && /<filepaths>|file paths that this command/i.test(instructionText(view)),
    answer: () => '<filepaths>\n</filepaths>',
  },
];

/** The first rule that matches, trying `rules` in order. */
export function findSideRequestRule(
  view: ConversationView,
  rules: readonly SideRequestRule[],
): SideRequestRule | undefined {
  return rules.find((rule) => rule.matches(view));
}
