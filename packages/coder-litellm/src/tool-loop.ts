import type { CoderV1Event, CoderV1Usage } from '@snodo/coder-sdk';
import { type LlmUsage, normalizeUsage, type PriceOverrides, type ResolvedModel, sumUsage } from '@snodo/llm';
import type { ModelMessage, Tool } from 'ai';
import { CoderOutputTruncatedError } from './errors/coder-output-truncated-error.js';
import { CoderSubmissionMissingError } from './errors/coder-submission-missing-error.js';
import { CoderTurnBudgetExhaustedError } from './errors/coder-turn-budget-exhausted-error.js';
import type { LitellmTranscript } from './litellm-transcript.js';
import { parseTextProposals } from './parse-text-proposals.js';
import { buildFirstMessage, buildSystemPrompt, CORRECTIVE_MESSAGE, LAST_TURN_MESSAGE } from './prompt.js';
import { createReadOnlyTools } from './read-only-tools.js';
import {
  SUBMIT_FILES_DESCRIPTION,
  SUBMIT_FILES_TOOL_NAME,
  type SubmitFilesInput,
  type SubmittedFile,
  submitFilesInputSchema,
} from './submit-files-tool.js';
import { type StopCause, toCoderError } from './to-coder-error.js';

/** What one run of the tool loop needs. */
export interface ToolLoopOptions {
  readonly coderId: string;
  readonly displayName: string;
  readonly model: ResolvedModel;
  /** snodo's prompt for the attempt (`request.prompt`). */
  readonly prompt: string;
  /** The worktree the read-only tools are confined to. */
  readonly workspace: string;
  readonly maxTurns: number;
  readonly maxOutputTokens: number;
  readonly temperature: number | undefined;
  readonly maxRetries: number;
  readonly prices: PriceOverrides | undefined;
  /** Fires on cancel or on the wall-clock limit; `stop` tells which. */
  readonly abortSignal: AbortSignal;
  readonly stop: StopCause;
  readonly emit: (event: CoderV1Event) => void;
  /** Where every exchange is written (`request.transcriptPath`); none in unit tests that do not look. */
  readonly transcript?: LitellmTranscript | undefined;
}

/** What the loop ends with: the model's submission, before its paths are checked. */
export interface ToolLoopResult {
  readonly files: readonly SubmittedFile[];
  /** Every model call of the attempt, summed and priced. */
  readonly usage: CoderV1Usage;
  /** How many model calls were made. */
  readonly turns: number;
  /** `tool` for a `submit_files` call, `text` when the JSON fallback read the answer's text. */
  readonly submittedBy: 'tool' | 'text';
}

/** Whether a response message carries anything; Anthropic rejects an assistant turn with empty content. */
function hasContent(message: ModelMessage): boolean {
  if (typeof message.content === 'string') return message.content.trim() !== '';
  return message.content.some((part) => part.type !== 'text' || part.text.trim() !== '');
}

/** Adds a user note, joining it to a preceding plain user message so roles keep alternating. */
function addUserNote(messages: ModelMessage[], note: string): void {
  const last = messages.at(-1);
  if (last?.role === 'user' && typeof last.content === 'string') {
    messages[messages.length - 1] = { role: 'user', content: `${last.content}\n\n${note}` };
  } else {
    messages.push({ role: 'user', content: note });
  }
}

/**
 * The bounded tool loop (SPEC §4.5; the Python original's `litellm.py` tool path). Each turn is one model
 * call offering `read_file`, `read_file_lines`, `list_files` (run here, confined to the worktree) and the
 * terminal `submit_files`. After every call: usage is priced and emitted; a cut-off answer fails at once
 * (`CODER_OUTPUT_TRUNCATED`); a valid `submit_files` call ends the loop; read calls are answered and the
 * loop goes on; an answer in prose gets exactly one corrective turn, after which a second prose answer is
 * read as a JSON file list if it is one and otherwise fails (`CODER_SUBMISSION_MISSING`). Running out of
 * turns fails with `CODER_TURN_BUDGET_EXHAUSTED`. Nothing here writes to the worktree.
 *
 * Usage is `reported` while the provider reported the token counts of every call (the cost may still be
 * priced from the catalog when the provider sends none); it is `estimated` once a call came back without
 * them, since snodo then has only its own count (zero) for that call.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult> {
  const ai = await import('ai');
  const { model, emit } = options;
  const readTools = createReadOnlyTools(options.workspace, (message) =>
    emit({ type: 'coder-progress', message }),
  );
  const submitFiles: Tool<SubmitFilesInput> = {
    description: SUBMIT_FILES_DESCRIPTION,
    inputSchema: submitFilesInputSchema,
  };
  const tools = { ...readTools, [SUBMIT_FILES_TOOL_NAME]: submitFiles };
  const system = buildSystemPrompt(options.maxTurns);
  const messages: ModelMessage[] = [
    { role: 'user', content: buildFirstMessage(options.prompt, options.workspace) },
  ];
  const usages: LlmUsage[] = [];
  let everyCallReported = true;
  const usageSoFar = (): CoderV1Usage => ({
    ...sumUsage(usages),
    source: everyCallReported ? 'reported' : 'estimated',
    model: model.modelString,
  });
  const { transcript } = options;
  transcript?.system(system);
  let corrected = false;
  let lastToolCalls: string[] = [];

  for (let turn = 1; turn <= options.maxTurns; turn += 1) {
    if (turn === options.maxTurns && turn > 1) addUserNote(messages, LAST_TURN_MESSAGE);
    let result: Awaited<ReturnType<typeof ai.generateText<typeof tools>>>;
    transcript?.request(turn, messages);
    try {
      options.abortSignal.throwIfAborted();
      result = await ai.generateText({
        model: model.model,
        system,
        messages,
        tools,
        maxOutputTokens: options.maxOutputTokens,
        maxRetries: options.maxRetries,
        abortSignal: options.abortSignal,
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      });
    } catch (error) {
      const failure = toCoderError(error, model, options.stop, ai);
      transcript?.error(turn, failure);
      throw failure;
    }
    const callUsage = normalizeUsage(result.usage, {
      model: model.modelString,
      prices: options.prices,
      responseHeaders: result.response.headers,
    });
    const reported = result.usage?.inputTokens !== undefined && result.usage?.outputTokens !== undefined;
    everyCallReported &&= reported;
    usages.push(callUsage);
    transcript?.response(turn, {
      finishReason: result.rawFinishReason ?? result.finishReason,
      text: result.text,
      toolCalls: result.toolCalls.map((call) => ({ toolName: call.toolName, input: call.input })),
      usage: { ...callUsage, source: reported ? 'reported' : 'estimated', model: model.modelString },
    });
    emit({ type: 'usage', usage: usageSoFar() });

    if (result.finishReason === 'length') {
      throw new CoderOutputTruncatedError({
        coderId: options.coderId,
        displayName: options.displayName,
        model: model.modelString,
        maxOutputTokens: options.maxOutputTokens,
        rawFinishReason: result.rawFinishReason,
        turn,
        usage: usageSoFar(),
      });
    }

    const submission = result.toolCalls.find(
      (call) => call.toolName === SUBMIT_FILES_TOOL_NAME && call.invalid !== true,
    );
    if (submission !== undefined) {
      const { files } = submission.input as SubmitFilesInput;
      emit({ type: 'coder-progress', message: `submit_files ${files.length} file(s)` });
      return { files, usage: usageSoFar(), turns: turn, submittedBy: 'tool' };
    }

    if (result.toolCalls.length > 0) {
      lastToolCalls = result.toolCalls.map((call) => call.toolName);
      for (const call of result.toolCalls) {
        if (call.invalid === true) emit({ type: 'coder-progress', message: `invalid ${call.toolName} call` });
      }
      messages.push(...result.response.messages);
      continue;
    }

    lastToolCalls = [];
    if (!corrected) {
      corrected = true;
      emit({ type: 'coder-progress', message: 'the model answered in prose; asking it to use submit_files' });
      messages.push(...result.response.messages.filter(hasContent));
      addUserNote(messages, CORRECTIVE_MESSAGE);
      continue;
    }
    const parsed = parseTextProposals(result.text);
    if (parsed !== undefined) {
      emit({ type: 'coder-progress', message: `read ${parsed.length} file(s) from the answer's JSON` });
      return { files: parsed, usage: usageSoFar(), turns: turn, submittedBy: 'text' };
    }
    throw new CoderSubmissionMissingError({
      coderId: options.coderId,
      displayName: options.displayName,
      model: model.modelString,
      turns: turn,
      finishReason: result.rawFinishReason ?? result.finishReason,
      text: result.text,
      usage: usageSoFar(),
    });
  }

  throw new CoderTurnBudgetExhaustedError({
    coderId: options.coderId,
    displayName: options.displayName,
    model: model.modelString,
    maxTurns: options.maxTurns,
    lastToolCalls,
    usage: usageSoFar(),
  });
}
