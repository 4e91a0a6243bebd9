import { z } from 'zod';
import { nonBlankString, protocolConstraintSchema } from './protocol-constraint-schema.js';

/**
 * A mode: one kind of work the protocol allows (produce, review, plan…), with the gates and constraints
 * that govern it and, optionally, the coder that does it. `snodo run` picks one mode per task (`--mode`,
 * or the classifier when several modes exist).
 */
export const protocolModeSchema = z.object({
  /** Unique id; `--mode`, `initial_mode` and `transitions` name modes by it. */
  mode_id: nonBlankString(),
  /** Human name, shown in reports. */
  name: z.string(),
  /** What work belongs here; the classifier reads it when it routes a task to a mode. */
  description: z.string().optional(),
  /** Text handed to the coder with every task in this mode (house rules, where things live…). */
  instructions: z.string().optional(),
  /**
   * Logical tool names (`edit`, `dispatch`, `review`, `merge`…). Tool sets of different modes must be
   * disjoint (WF1: separation of duties); a mode with `dispatch` needs a pre-execute validator (WF3).
   */
  tools: z.array(z.string()).default([]),
  /** Ids of the validators this mode runs; each phase runs the ones of that phase. */
  validators: z.array(z.string()).default([]),
  /** Constraints checked for this mode, together with `global_constraints`. */
  constraints: z.array(protocolConstraintSchema).default([]),
  /**
   * Event → next mode. Declarative: snodo never switches modes on its own; the protocol-adherence gate
   * and the classifier read them as context.
   */
  transitions: z
    .record(z.string().min(1, { error: 'transition events must not be empty' }), z.string())
    .refine((map) => Object.values(map).every((target) => target.trim() !== ''), {
      error: 'transition targets must not be empty',
    })
    .default({}),
  /** The coder for this mode (precedence level 3, SPEC §4.3): a registered coder id. */
  coder: z.string().min(1).optional(),
  /** Settings passed to the coder unchanged (model, files for the mock coder…). */
  coder_config: z.record(z.string(), z.unknown()).default({}),
  /** Globs (`**` semantics) the coder is told to stay within; `files_in_scope` can enforce them. */
  scope: z.array(z.string()).optional(),
});

/** A mode as loaded, defaults filled. */
export type ProtocolMode = z.infer<typeof protocolModeSchema>;
