import type { z } from 'zod';
import type { JudgeToolSource } from './judge-tool-source.js';

/** What a tool answers: the text the model reads, or why it refused (also shown to the model). */
export type JudgeToolAnswer =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string };

/** The names of the tools a judge can be given. There is no tool that writes or runs anything. */
export type JudgeToolName = 'read_file' | 'list_files' | 'read_diff' | 'git_log';

/** One read-only tool: its name and description for the model, its input schema, and what it does. */
export interface JudgeToolDefinition<Input = unknown> {
  readonly name: JudgeToolName;
  readonly description: string;
  /** Checks the model's input (untrusted); its JSON schema is what the model is shown. */
  readonly input: z.ZodType<Input>;
  /** Reads `source` and answers; a refusal is an answer, never a throw (a git failure may throw). */
  readonly run: (input: Input, source: JudgeToolSource) => Promise<JudgeToolAnswer>;
}
