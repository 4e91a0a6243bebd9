import { z } from 'zod';
import { describeError } from '../../elapsed.js';
import type { GateJudgeTool } from '../gate-judge-function.js';
import { gitLogTool } from './git-log-tool.js';
import { type JudgeToolCall, recordedInput } from './judge-tool-call.js';
import type { JudgeToolAnswer, JudgeToolDefinition, JudgeToolName } from './judge-tool-definition.js';
import { JUDGE_TOOL_LIMITS } from './judge-tool-limits.js';
import type { JudgeToolSource } from './judge-tool-source.js';
import { listFilesTool } from './list-files-tool.js';
import { readDiffTool } from './read-diff-tool.js';
import { readFileTool } from './read-file-tool.js';

/** A tool with its input type erased: it checks the model's input itself. */
interface RunnableJudgeTool {
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly run: (input: unknown, source: JudgeToolSource) => Promise<JudgeToolAnswer>;
}

function runnable<Input>(definition: JudgeToolDefinition<Input>): RunnableJudgeTool {
  return {
    description: definition.description,
    inputSchema: inputJsonSchema(definition.input),
    async run(input, source) {
      const parsed = definition.input.safeParse(input);
      if (!parsed.success)
        return { ok: false, error: `bad input for ${definition.name}: ${inputProblem(parsed.error)}` };
      return definition.run(parsed.data, source);
    },
  };
}

// Built when a judge asks for tools, not when the module loads: most runs never need the JSON schemas.
const RUNNABLE: Record<JudgeToolName, () => RunnableJudgeTool> = {
  read_file: () => runnable(readFileTool),
  list_files: () => runnable(listFilesTool),
  read_diff: () => runnable(readDiffTool),
  git_log: () => runnable(gitLogTool),
};

function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<
    string,
    unknown
  >;
  return json;
}

function inputProblem(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length === 0 ? 'input' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
}

/**
 * The judge's tools, each reading `source` and appending one `JudgeToolCall` to `calls` per call. Nothing
 * a tool meets is thrown at the loop: a bad input, a refused path, a git failure and the per-judge call cap
 * are all answered as `Error: …` text the model can act on, and recorded with `ok: false`.
 */
export function buildJudgeTools(
  names: readonly JudgeToolName[],
  source: JudgeToolSource,
  calls: JudgeToolCall[],
): GateJudgeTool[] {
  return names.map((name) => {
    const definition = RUNNABLE[name]();
    const record = (input: unknown, answer: string, error?: string) => {
      calls.push({
        tool: name,
        input: recordedInput(input),
        ok: error === undefined,
        ...(error === undefined ? {} : { error }),
        bytes: Buffer.byteLength(answer, 'utf8'),
      });
      return answer;
    };
    const refuse = (input: unknown, error: string) => record(input, `Error: ${error}`, error);
    return {
      name,
      description: definition.description,
      inputSchema: definition.inputSchema,
      async execute(input: unknown): Promise<string> {
        if (calls.length >= JUDGE_TOOL_LIMITS.callsPerJudge) {
          return refuse(
            input,
            `this judge made ${JUDGE_TOOL_LIMITS.callsPerJudge} tool calls, the most it may; answer now`,
          );
        }
        try {
          const answer = await definition.run(input, source);
          return answer.ok ? record(input, answer.text) : refuse(input, answer.error);
        } catch (error) {
          return refuse(input, `${name} failed: ${describeError(error)}`);
        }
      },
    };
  });
}
