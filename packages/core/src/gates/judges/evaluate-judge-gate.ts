import type { DiffContext } from '../constraints/diff-context.js';
import { describeError, startStopwatch } from '../elapsed.js';
import type { GateModeProfile } from '../gate-mode-profile.js';
import type { GatePhase } from '../gate-phase.js';
import type { GateValidatorSpec } from '../gate-validator-spec.js';
import type { GateVerdict } from '../gate-verdict.js';
import { isSeverity } from '../severity.js';
import { buildJudgePrompt } from './build-judge-prompt.js';
import { buildProtocolAdherencePrompt } from './build-protocol-adherence-prompt.js';
import type { GateJudgeFunction, GateJudgeResponse } from './gate-judge-function.js';
import type { JudgePrompt, SharedJudgePrefix } from './judge-prompt-parts.js';
import type { JudgeToolSource } from './judge-tools/judge-tool-source.js';
import { prepareJudgeTools } from './judge-tools/prepare-judge-tools.js';
import { normaliseFindings } from './normalise-findings.js';

/**
 * The error codes of `@snodo/llm` that mean the provider could not be asked (unreachable, 5xx, 429, a
 * rejected or missing key, a provider package not installed): an outage, not a verdict on the change. A
 * malformed answer (`VERDICT_INVALID`) is the model's, and stays a plain gate error.
 */
const OUTAGE_CODES = new Set(['LLM_CALL_FAILED', 'LLM_CREDENTIALS_MISSING', 'LLM_PROVIDER_NOT_INSTALLED']);

function outageCause(error: unknown): GateVerdict['cause'] {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !OUTAGE_CODES.has(code)) return undefined;
  return { kind: 'environment', code, message: error instanceof Error ? error.message : String(error) };
}

/**
 * A judge with tools that used its whole turn budget: the protocol's author raises `max_turns` (or narrows
 * the criteria); no coder attempt can fix it, so it is a configuration cause.
 */
function turnsExhaustedCause(error: unknown): GateVerdict['cause'] {
  if ((error as { code?: unknown } | null)?.code !== 'JUDGE_TURNS_EXHAUSTED') return undefined;
  return { kind: 'configuration', code: 'JUDGE_TURNS_EXHAUSTED', message: (error as Error).message };
}

/** What a judge gate needs besides its validator. */
export interface JudgeGateOptions {
  /** The phase being run. */
  readonly phase: GatePhase;
  /** The task text. */
  readonly task: string;
  /** The diff `base..HEAD` (post-execute). */
  readonly diff?: DiffContext;
  /** Command gate verdicts of the same phase (post-execute). */
  readonly commandResults?: readonly GateVerdict[];
  /** Asks the model; absent → error verdict. */
  readonly judge?: GateJudgeFunction;
  /** The run's judging model; a validator's own `model` wins. */
  readonly judgeModel?: string;
  /** The current mode (the `protocol` judge needs it). */
  readonly mode?: GateModeProfile;
  /** The other modes (the `protocol` judge needs them). */
  readonly siblingModes?: readonly GateModeProfile[];
  /** Cap on the diff text in the prompt. */
  readonly maxDiffChars?: number;
  /** Cancels the call. */
  readonly signal?: AbortSignal;
  /** The phase's shared prompt prefix, built once for all its judges (`buildSharedJudgePrefix`). */
  readonly sharedPrefix?: SharedJudgePrefix;
  /** Names the shared prefix for the provider's prompt cache (see `GateJudgeRequest.cacheKey`). */
  readonly cacheKey?: string;
  /** What a judge with a `tools:` grant reads: the judged commit's tree (post-execute) or the base's. */
  readonly toolSource?: JudgeToolSource;
}

/**
 * Runs an LLM judge (any judge type, custom types, and `protocol` adherence). Everything that keeps a
 * verdict from being produced (no model configured, no judge function, no mode profiles for `protocol`,
 * the call throwing, a malformed answer) is an error verdict, severity blocker, with the cause named:
 * never a silent warn, which under `unanimous` would look like a disagreement rather than an outage.
 */
export async function evaluateJudgeGate(
  spec: GateValidatorSpec,
  options: JudgeGateOptions,
): Promise<GateVerdict> {
  const elapsed = startStopwatch();
  const id = spec.validator_id;
  const base = { gateId: id, gateType: spec.validator_type, kind: 'judge' as const, phase: options.phase };
  const model = (spec.model ?? '').trim() || (options.judgeModel ?? '').trim();
  const failure = (justification: string, extra: Partial<GateVerdict> = {}): GateVerdict => ({
    ...base,
    severity: 'blocker',
    error: true,
    justification,
    findings: [],
    ...extra,
    durationMs: elapsed(),
  });
  if (model === '') {
    const justification =
      `Validator ${id} could not run: no judging model is configured. Set model: on the validator in ` +
      '.snodo/protocol.yml, llm.validator.model in config, or pass -m <provider/model>.';
    return failure(justification, {
      cause: { kind: 'configuration', code: 'MODEL_REQUIRED', message: justification },
    });
  }
  if (options.judge === undefined) {
    return failure(`Validator ${id} could not run: no judging function was provided to the gate runner.`, {
      model,
    });
  }
  const looking = prepareJudgeTools(spec, options.toolSource);
  if (looking?.ok === false) {
    return failure(looking.justification, { model, ...(looking.cause ? { cause: looking.cause } : {}) });
  }
  // The calls are recorded on every verdict of a judge that looked, an error one included.
  const toolCalls = looking === undefined ? {} : { toolCalls: looking.calls };
  let prompt: JudgePrompt;
  if (spec.validator_type === 'protocol') {
    if (options.mode === undefined) {
      return failure(`Validator ${id} could not run: the protocol-adherence judge needs the mode profiles.`, {
        model,
      });
    }
    prompt = buildProtocolAdherencePrompt({
      ...options,
      validator: spec,
      mode: options.mode,
      siblingModes: options.siblingModes ?? [],
    });
  } else {
    prompt = buildJudgePrompt({ ...options, validator: spec });
  }
  let response: GateJudgeResponse;
  try {
    response = await options.judge({
      model,
      system: prompt.system,
      prompt: prompt.prompt,
      sharedPrefix: prompt.sharedPrefix,
      ...(options.cacheKey ? { cacheKey: options.cacheKey } : {}),
      gateId: id,
      gateType: spec.validator_type,
      ...(options.signal ? { abortSignal: options.signal } : {}),
      ...(looking === undefined ? {} : { tools: looking.tools, maxTurns: looking.maxTurns }),
    });
  } catch (error) {
    const cause = outageCause(error) ?? turnsExhaustedCause(error);
    const usage = (error as { usage?: GateVerdict['usage'] } | null)?.usage;
    return failure(`Validator ${id} could not produce a verdict with ${model}: ${describeError(error)}`, {
      model,
      ...(cause ? { cause } : {}),
      ...(usage ? { usage } : {}),
      ...toolCalls,
    });
  }
  const answeredModel = response?.model ?? model;
  const severity = response?.verdict?.severity;
  const justification = response?.verdict?.justification;
  if (!isSeverity(severity) || typeof justification !== 'string') {
    return failure(
      `Validator ${id} got an invalid verdict from ${answeredModel}: severity ${JSON.stringify(severity)} ` +
        '(expected pass, warn or blocker) and a justification string.',
      { model: answeredModel, ...toolCalls },
    );
  }
  return {
    ...base,
    severity,
    error: false,
    justification,
    findings: normaliseFindings(response.verdict.findings),
    evidence: { promptChars: prompt.prompt.length, diffTruncated: prompt.diffTruncated },
    ...(response.usage ? { usage: response.usage } : {}),
    model: answeredModel,
    ...toolCalls,
    durationMs: elapsed(),
  };
}
