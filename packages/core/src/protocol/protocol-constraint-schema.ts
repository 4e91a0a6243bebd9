import { z } from 'zod';

/**
 * A verdict's severity, ordered `pass < warn < blocker`. The same words appear in constraints
 * (`severity`), validators (`severity_cap`) and judges' verdicts.
 */
export const severitySchema = z.enum(['pass', 'warn', 'blocker']);

/** `pass`, `warn` or `blocker`. */
export type Severity = z.infer<typeof severitySchema>;

/** Constraint ids: letters, digits, `-` and `_` (the Python original's rule, kept so its files load). */
export const constraintIdPattern = /^[A-Za-z0-9_-]+$/;

/** A string that is not empty or only spaces (ids, names the original required to be non-blank). */
export function nonBlankString() {
  return z.string().refine((value) => value.trim() !== '', { error: 'must not be empty' });
}

/**
 * One deterministic rule checked on the real diff `base..HEAD` (SPEC §5), under `global_constraints`, a
 * mode's `constraints`, or a validator's `constraints`. Field names are the file's own (snake_case).
 */
export const protocolConstraintSchema = z.object({
  /** Unique across the whole protocol (WF5); named in verdicts and the audit log. */
  constraint_id: z.string().regex(constraintIdPattern, {
    error: 'may hold only letters, digits, `-` and `_`',
  }),
  /** What the rule protects, for people reading the file and the verdict. */
  description: z.string(),
  /**
   * Free-text rule from the Python original's first protocol format. Documentation only: snodo
   * evaluates `predicate`. A constraint with neither is invalid (WF5).
   */
  expression: z.string().optional(),
  /**
   * The registered predicate that evaluates this constraint (`files_in_scope`, `tests_exist_for_modified`,
   * `no_secrets_in_diff`, or one the embedder registered). Unknown names fail the load (WF5).
   */
  predicate: z.string().optional(),
  /** Keyword arguments for the predicate (`scope_paths`, `patterns`…). */
  params: z.record(z.string(), z.unknown()).default({}),
  /** What a violation does: `blocker` halts the job, `warn` and `pass` are recorded only. */
  severity: severitySchema.default('blocker'),
});

/** A constraint as loaded, defaults filled. */
export type ProtocolConstraint = z.infer<typeof protocolConstraintSchema>;
