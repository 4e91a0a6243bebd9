import type { GateUsage } from '../gate-verdict.js';

/**
 * One judging call. The shape matches `@snodo/llm`'s `generateVerdict({ model, system, prompt,
 * abortSignal })`, so the caller can pass that function (bound to its credentials) directly; the extra
 * fields say which gate is asking, for telemetry.
 */
export interface GateJudgeRequest {
  /** The judging model, `provider/model` (the validator's `model`, else the run's judging model). */
  readonly model: string;
  /** The system message: the judge's role and how to answer. */
  readonly system: string;
  /** The user message: task, criteria, and for post-execute judges the diff and command results. */
  readonly prompt: string;
  /**
   * The leading part of `prompt` every judge of the phase shares byte for byte (task, diff, command
   * results); `prompt` starts with it. A judging function that can cache a prompt prefix caches this.
   */
  readonly sharedPrefix?: string;
  /**
   * A key naming the shared prefix (job and diff), for providers that route cached prompts by a key. The
   * same for every judge of the phase; opaque to the judging function.
   */
  readonly cacheKey?: string;
  /** Cancels the call. */
  readonly abortSignal?: AbortSignal;
  /** The validator asking. */
  readonly gateId: string;
  /** Its type. */
  readonly gateType: string;
}

/**
 * What a judging call returns. Typed loosely on purpose (`severity: string`, `findings: unknown[]`): the
 * wire answer of a model is untrusted, so the gate re-checks it and turns anything malformed into an
 * error verdict.
 */
export interface GateJudgeResponse {
  /** The structured verdict. */
  readonly verdict: {
    /** `pass`, `warn` or `blocker`. */
    readonly severity: string;
    /** Why. */
    readonly justification: string;
    /** Problems found: strings or objects with `message` (and optionally `path`/`file`, `line`). */
    readonly findings?: readonly unknown[] | null;
  };
  /** Token usage of the call. */
  readonly usage?: GateUsage | null;
  /** The model that actually answered. */
  readonly model?: string | null;
}

/**
 * Asks a model for a verdict. Throws (typed errors from `@snodo/llm`) when no verdict can be produced;
 * the gate turns a throw into an error verdict that halts the phase, never into a warn.
 */
export type GateJudgeFunction = (request: GateJudgeRequest) => Promise<GateJudgeResponse>;
