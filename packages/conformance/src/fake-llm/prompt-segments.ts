import type { FakeLlmDialect } from './dialect.js';
import { asArray, asRecord } from './json-values.js';

/**
 * A request's prompt as the prompt cache sees it: every string it sends, in the order the provider
 * caches them (tools and output format, then system, then messages), and where Anthropic cache
 * breakpoints end. Counting the strings rather than the JSON keeps the estimate close to what a
 * tokenizer counts, and leaves out the `cache_control` markers themselves, which are not content.
 */
export interface PromptSegments {
  /** The prompt's text, every string joined with newlines. */
  readonly text: string;
  /** Offsets into `text` just after each block that carries `cache_control` (Anthropic), in order. */
  readonly breakpoints: readonly number[];
}

/** The request fields, in the order each provider puts them in the prompt it caches. */
const FIELD_ORDER: Record<FakeLlmDialect, readonly string[]> = {
  anthropic: ['tools', 'output_config', 'output_format', 'system', 'messages'],
  'openai-chat': ['tools', 'response_format', 'messages'],
  'openai-responses': ['tools', 'text', 'instructions', 'input'],
  gemini: ['tools', 'toolConfig', 'systemInstruction', 'generationConfig', 'contents'],
};

/** The estimate of tokens in `text`: a quarter of its characters, rounded up (about what BPE gives English and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Reads the cacheable prompt of a generation request in `dialect`. */
export function readPromptSegments(dialect: FakeLlmDialect, body: Record<string, unknown>): PromptSegments {
  const pieces: string[] = [];
  const breakpoints: number[] = [];
  let length = 0;
  const push = (text: string) => {
    if (text === '') return;
    if (pieces.length > 0) length += 1;
    pieces.push(text);
    length += text.length;
  };
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      push(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    const record = asRecord(value);
    if (record === undefined) return;
    for (const [key, item] of Object.entries(record)) {
      if (key !== 'cache_control') walk(item);
    }
    if (record.cache_control !== undefined && record.cache_control !== null) breakpoints.push(length);
  };
  for (const field of FIELD_ORDER[dialect]) {
    const value = body[field];
    // A system prompt or message content given as a plain string is one block without a breakpoint.
    if (Array.isArray(value)) for (const item of asArray(value)) walk(item);
    else walk(value);
  }
  // Anthropic's automatic caching: `cache_control` on the request puts a breakpoint at the end.
  if (dialect === 'anthropic' && asRecord(body.cache_control) !== undefined) breakpoints.push(length);
  return { text: pieces.join('\n'), breakpoints };
}
