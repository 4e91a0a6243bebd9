import { JUDGE_TOOL_LIMITS } from './judge-tool-limits.js';

/**
 * One tool call a judge made, recorded with its verdict (`GateVerdict.toolCalls`, `state.json`, the gate's
 * evidence file, `snodo task show`), so a reader sees what the judge looked at before it decided.
 */
export interface JudgeToolCall {
  /** The tool's name (`read_file`, `list_files`, `read_diff`, `git_log`). */
  readonly tool: string;
  /** The input as the model sent it, as JSON text (cut at 500 characters). */
  readonly input: string;
  /** `false` when the tool refused or failed; the model got `error` as the tool's answer. */
  readonly ok: boolean;
  /** Why it refused or failed (a path outside the workspace, a missing file, a bad input). */
  readonly error?: string;
  /** UTF-8 bytes of the answer the model received. */
  readonly bytes: number;
}

/** The model's input as the record keeps it: JSON, cut to a bounded length. */
export function recordedInput(input: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(input) ?? String(input);
  } catch {
    text = String(input);
  }
  const limit = JUDGE_TOOL_LIMITS.recordedInputChars;
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
