import { z } from 'zod';
import { nonBlankString, protocolConstraintSchema, severitySchema } from './protocol-constraint-schema.js';

/**
 * The only tools a judge may be granted: each reads the repository, none writes or runs anything. Kept
 * identical to the Python original's list so its files load.
 */
export const READ_ONLY_VALIDATOR_TOOLS = [
  'read_file',
  'read_file_lines',
  'list_files',
  'git_show',
  'git_log',
  'read_diff_between_refs',
] as const;

/**
 * Validator types snodo runs itself (SPEC §5): LLM judges (`security` … `llm`), the command gate
 * (`quality`) and protocol adherence (`protocol`). Any other string is a custom judge type driven by its
 * `criteria`; it is not an error.
 */
export const BUILT_IN_VALIDATOR_TYPES = [
  'security',
  'architecture',
  'conventions',
  'performance',
  'testing',
  'planning',
  'llm',
  'quality',
  'protocol',
] as const;

/**
 * When a validator runs: on the task text before the coder (`pre_execute`) or on the real diff after it
 * (`post_execute`). `mode_transition` is accepted because the original accepted it, but nothing runs it
 * (the loader warns).
 */
export const evaluationPhaseSchema = z.enum(['pre_execute', 'post_execute', 'mode_transition']);

/** `pre_execute`, `post_execute` or `mode_transition`. */
export type EvaluationPhase = z.infer<typeof evaluationPhaseSchema>;

/** A test command: a string runs through `sh -c`, a list runs directly (argv). */
const testCommandSchema = z.union([z.string().min(1), z.array(z.string()).min(1)], {
  error: 'must be a command string or a list of argv strings',
});

/**
 * Backend settings of a validator. Only the command gate (`quality`) reads them today; other keys are
 * kept out of the parsed value and reported as unknown.
 */
export const validatorToolingSchema = z.object({
  /** The command gate's command; absent → detected from the repository's marker files. */
  test_command: testCommandSchema.optional(),
  /** Seconds the command may run before it is killed and counted as a blocker. */
  timeout: z.number().positive().optional(),
});

/** A validator's `tooling` as loaded. */
export type ValidatorTooling = z.infer<typeof validatorToolingSchema>;

const readOnlyToolSchema = z.enum(READ_ONLY_VALIDATOR_TOOLS, {
  error: (issue) =>
    `\`${String(issue.input)}\` is not a read-only tool; validators may never use write/exec tools ` +
    `(allowed: ${READ_ONLY_VALIDATOR_TOOLS.join(', ')})`,
});

/**
 * One gate: an LLM judge, the command gate or the protocol-adherence check (SPEC §5). Modes list the
 * validators they run by `validator_id`.
 */
export const protocolValidatorSchema = z.object({
  /** Unique id, referenced from `modes[].validators`. */
  validator_id: nonBlankString(),
  /** One of `BUILT_IN_VALIDATOR_TYPES` or a custom judge type. */
  validator_type: nonBlankString(),
  /** Phase the gate runs in; the original's default, `pre_execute`, is kept. */
  evaluation_phase: evaluationPhaseSchema.default('pre_execute'),
  /** Natural-language checks the judge applies, one per line of its prompt. */
  criteria: z.array(z.string()).default([]),
  /** Backend settings (the command gate's `test_command` and `timeout`). */
  tooling: validatorToolingSchema.prefault({}),
  /** Highest severity this gate may emit (`warn` = shadow mode). An error stays an error. */
  severity_cap: severitySchema.optional(),
  /** Judging model for this gate only (`provider/model`), over the run's judging model. */
  model: z.string().min(1).optional(),
  /** Read-only tools the judge may call while it reads the change; empty = one completion. */
  tools: z.array(readOnlyToolSchema).default([]),
  /**
   * Model calls a judge with `tools` may make, its answer included (default 8). A judge still calling tools
   * when they run out gets an error verdict, never a pass. Ignored without `tools`.
   */
  max_turns: z.number().int().min(1).max(64).default(8),
  /**
   * Constraints declared on the validator. Accepted for the original's files; they are evaluated with the
   * constraints of each mode that lists this validator (the loader warns so that is not a surprise).
   */
  constraints: z.array(protocolConstraintSchema).default([]),
});

/** A validator as loaded, defaults filled. */
export type ProtocolValidator = z.infer<typeof protocolValidatorSchema>;
