/**
 * One finding from a gate that the next attempt must address, folded into the fix-loop prompt by
 * `buildCoderPrompt`.
 */
export interface CoderPromptFinding {
  /** The validator or constraint that produced it (`security`, `files_in_scope`). */
  readonly validatorId: string;
  /** Its severity as the gate reported it (`blocker`, `warn`, `error`). */
  readonly severity: string;
  /** The gate's reason, in its own words. */
  readonly justification: string;
}

/**
 * What the shared prompt builder is given. Core fills it from the task, the protocol mode and, on fix-loop
 * rounds, the gate verdicts.
 */
export interface CoderPromptInput {
  /** The task exactly as the user gave it. */
  readonly task: string;
  /** The protocol mode's name (`Feature development`), when the protocol has modes. */
  readonly modeName?: string;
  /** The mode's own instructions for the coder. */
  readonly instructions?: string;
  /** Constraint descriptions the change must respect, in protocol order. */
  readonly constraints?: readonly string[];
  /** Globs of the files the change may touch (`src/**`); absent or empty means no restriction. */
  readonly scope?: readonly string[];
  /** Findings of the previous attempt's gates, on fix-loop rounds. */
  readonly findings?: readonly CoderPromptFinding[];
  /** Which attempt the prompt is for: 1 for the first run, 2… for fix rounds. */
  readonly attempt: number;
}
