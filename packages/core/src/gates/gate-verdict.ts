import type { GatePhase } from './gate-phase.js';
import type { JudgeToolCall } from './judges/judge-tools/judge-tool-call.js';
import type { Severity } from './severity.js';

/**
 * What kind of gate produced a verdict. The policy treats them differently: judges and command gates vote
 * under the disagreement policy; constraints never vote, they can only halt (blocker, error) or add a log
 * entry (warn). Recoverability in the fix loop also depends on it.
 */
export type GateKind = 'constraint' | 'command' | 'judge';

/**
 * One concrete problem a gate found, shown to the user and fed back to the coder on a fix attempt.
 */
export interface GateFinding {
  /** What is wrong, in one sentence. */
  readonly message: string;
  /** The repository-relative file it concerns, when known. */
  readonly path?: string;
  /** The 1-based line in the new version of `path`, when known. */
  readonly line?: number;
}

/**
 * Token usage of one LLM judge call, as reported by the judging function. Every field is optional so that
 * whatever `@snodo/llm` reports is assignable; core passes it through to telemetry untouched.
 */
export interface GateUsage {
  /** Prompt tokens. */
  readonly inputTokens?: number | null;
  /** Completion tokens. */
  readonly outputTokens?: number | null;
  /** Prompt tokens served from a provider cache. */
  readonly cachedInputTokens?: number | null;
  /** Of the prompt tokens, those written to a provider cache. */
  readonly cacheWriteTokens?: number | null;
  /** Cost in US dollars, when known. */
  readonly costUsd?: number | null;
  /** Whether the figures were reported by the provider or estimated. */
  readonly source?: string;
}

/**
 * Why a gate's finding is not the change's fault, so no coder attempt can fix it: `environment` (the
 * provider is unreachable, rate limiting, failing or rejected the key; the gate's tool is missing) or
 * `configuration` (no model, no test command, a misconfigured validator: the protocol's author fixes it).
 * An `environment` cause that kept a gate from deciding ends the job as an outage (exit 3), not a verdict.
 */
export interface GateVerdictCause {
  readonly kind: 'environment' | 'configuration';
  /** The error code behind it (`LLM_CALL_FAILED`, `GATE_COMMAND_UNAVAILABLE`, `MODEL_REQUIRED`…). */
  readonly code: string;
  /** The underlying message, word for word (the provider's own error for an outage). */
  readonly message: string;
}

/**
 * The result of one gate in one phase: what the runner returns, what `gate-verdict` events carry, what the
 * audit log and `.snodo/jobs/<id>/gates/` record, and what the policy decides on.
 */
export interface GateVerdict {
  /** The validator's `validator_id` or the constraint's `constraint_id`. */
  readonly gateId: string;
  /**
   * The validator's `validator_type` (`security`, `quality`, `protocol`, a custom type…), or for a
   * constraint its predicate name (`files_in_scope`, `snodo_mutation_guard`…).
   */
  readonly gateType: string;
  /** Which family of gate this is; drives voting and recoverability. */
  readonly kind: GateKind;
  /** The phase it ran in. */
  readonly phase: GatePhase;
  /** The severity after `severity_cap`. */
  readonly severity: Severity;
  /** Why, in a sentence or two a user can act on. */
  readonly justification: string;
  /** The concrete problems, possibly empty. */
  readonly findings: readonly GateFinding[];
  /**
   * `true` when the gate could not produce a verdict at all (the LLM call failed, no judging model, an
   * unknown predicate, a predicate that threw). Always fails closed: the policy halts `validator_error`,
   * and capping the severity never clears it.
   */
  readonly error: boolean;
  /** Present when what the gate reports is the environment's or the configuration's doing, not the change's. */
  readonly cause?: GateVerdictCause;
  /** The severity before `severity_cap` lowered it; present only when `capped` is true. */
  readonly originalSeverity?: Severity;
  /** `true` when `severity_cap` lowered the severity. */
  readonly capped?: boolean;
  /** Structured, JSON-serialisable evidence (command and output tail, out-of-scope files, masked secrets…). */
  readonly evidence?: Readonly<Record<string, unknown>>;
  /** Wall-clock time the gate took, whole milliseconds. */
  readonly durationMs: number;
  /** Judge token usage, when the gate called a model. */
  readonly usage?: GateUsage;
  /** The model that judged, when the gate called one. */
  readonly model?: string;
  /** The tool calls a judge with a `tools:` grant made before it answered (or ran out of turns), in order. */
  readonly toolCalls?: readonly JudgeToolCall[];
}
