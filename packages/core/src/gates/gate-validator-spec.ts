/**
 * The fields of a protocol validator that the gates read, with the protocol file's own snake_case names.
 * A structural subset of the protocol schema's validator type, so a parsed protocol validator can be passed
 * as is. Values the schema already checks are typed loosely (`string`, `unknown`) and re-checked here at
 * run time, so a gate fails closed instead of trusting its input.
 */
export interface GateValidatorSpec {
  /** The validator's id, unique in the protocol; becomes the verdict's `gateId`. */
  readonly validator_id: string;
  /**
   * Routes the validator: `quality` → command gate; `protocol` → protocol-adherence judge; `security`,
   * `architecture`, `conventions`, `performance`, `testing`, `planning`, `llm` or any other type with
   * criteria → LLM judge.
   */
  readonly validator_type: string;
  /** `pre_execute` (the default), `post_execute` or `mode_transition` (never run). */
  readonly evaluation_phase?: string | null;
  /** Natural-language lines the judge checks, numbered in the prompt. */
  readonly criteria?: readonly string[] | null;
  /** Command gate settings: `test_command` (string → `sh -c`, array → argv) and `timeout` in seconds. */
  readonly tooling?: GateValidatorTooling | null;
  /** The highest severity this validator may emit (`warn` = shadow mode). Never clears `error`. */
  readonly severity_cap?: string | null;
  /** Per-validator judging model, overriding the run's judging model. */
  readonly model?: string | null;
  /** Read-only tools granted to the judge: a non-empty grant gives it a bounded tool loop (`judges/judge-tools/`). */
  readonly tools?: readonly string[] | null;
  /** Model calls a judge's tool loop may make, its answer included (default 8). */
  readonly max_turns?: number | null;
}

/** The `tooling` block of a validator, as far as command gates read it. */
export interface GateValidatorTooling {
  /** A string runs through `sh -c`; an array runs directly as argv. */
  readonly test_command?: string | readonly string[] | null;
  /** Wall-clock limit in seconds (default 300). */
  readonly timeout?: number | null;
}
