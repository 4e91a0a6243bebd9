import { VerdictInvalidError } from './errors/verdict-invalid-error.js';
import { runStructured, type StructuredCallOptions } from './generate-structured.js';
import type { LlmUsage } from './llm-usage.js';
import { toVerdict, type Verdict, verdictAnswerSchema } from './verdict.js';

/** Options of `generateVerdict`: the judge's prompts and the call settings. */
export type GenerateVerdictOptions = StructuredCallOptions;

/** What `generateVerdict` returns. */
export interface GenerateVerdictResult {
  /** The validated verdict. */
  readonly verdict: Verdict;
  /** Tokens and cost of every call made, the repair attempt included. */
  readonly usage: LlmUsage;
  /** The canonical model string that judged (`anthropic/claude-sonnet-4-5`). */
  readonly model: string;
  /** `true` when the first answer was invalid and the repair attempt produced this verdict. */
  readonly repaired: boolean;
  /** The answer as the model wrote it, kept as evidence in `.snodo/jobs/<id>/gates/`. */
  readonly text: string;
  /** Warnings the AI SDK raised (an unsupported setting the provider ignored, …). */
  readonly warnings: readonly string[];
}

/** Appended to the judge's system prompt, so endpoints that ignore structured output still know the shape. */
export const VERDICT_FORMAT =
  'Answer with one JSON object and nothing else: {"severity": "pass" | "warn" | "blocker", ' +
  '"justification": string, "findings": [{"message": string, "file": string | null, "line": number | null, ' +
  '"severity": "pass" | "warn" | "blocker" | null}]}. pass: every criterion is met; warn: minor concerns; ' +
  'blocker: a criterion is violated.';

/**
 * Asks a judging model for a verdict `{severity, justification, findings}` (SPEC §5). The caller (core's
 * LLM gates) writes the prompts; this adds the answer format, validates the answer, and makes exactly one
 * repair attempt when the first answer is invalid.
 *
 * Fails closed: every problem throws, none becomes a verdict. The caller decides what a judge without a
 * verdict means (halt `validator_error`).
 *
 * @throws {VerdictInvalidError} (`VERDICT_INVALID`) when the repair answer is invalid too.
 * @throws {LlmCallFailedError} (`LLM_CALL_FAILED`) when a call fails.
 * @throws {LlmCallAbortedError} (`LLM_CALL_ABORTED`) when `abortSignal` fires.
 * @throws the errors of `resolveModel` when `model` is a string.
 */
export async function generateVerdict(options: GenerateVerdictOptions): Promise<GenerateVerdictResult> {
  const system = options.system === undefined ? VERDICT_FORMAT : `${options.system}\n\n${VERDICT_FORMAT}`;
  const result = await runStructured(
    {
      ...options,
      system,
      schema: verdictAnswerSchema,
      schemaName: 'verdict',
      schemaDescription: 'A judge verdict',
    },
    (details) => new VerdictInvalidError(details),
  );
  return {
    verdict: toVerdict(result.object),
    usage: result.usage,
    model: result.model,
    repaired: result.repaired,
    text: result.text,
    warnings: result.warnings,
  };
}
