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
  /**
   * Read-only tools the judge may call before it answers (its `tools:` grant); absent or empty → one
   * completion. A judging function given tools runs a bounded loop (`@snodo/llm`'s `generateVerdictWithTools`).
   */
  readonly tools?: readonly GateJudgeTool[];
  /** Model calls the tool loop may make, the answer included (the validator's `max_turns`, default 8). */
  readonly maxTurns?: number;
  /** The validator asking. */
  readonly gateId: string;
  /** Its type. */
  readonly gateType: string;
}

/**
 * One read-only tool a judge may call: the same shape as `@snodo/llm`'s `VerdictTool`, so a judging
 * function passes it on as is. `execute` never throws; a refusal is its answer (`Error: …`).
 */
export interface GateJudgeTool {
  /** The name the model calls it by (`read_file`, `list_files`, `read_diff`, `git_log`). */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /** The JSON schema of its input. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Runs it on the model's (untrusted) input and records the call. */
  readonly execute: (input: unknown) => Promise<string>;
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
