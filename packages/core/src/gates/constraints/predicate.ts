import type { GateFinding } from '../gate-verdict.js';
import type { DiffContext } from './diff-context.js';

/** What a predicate is evaluated against. */
export interface PredicateContext {
  /** The real diff `base..HEAD` of the task branch. */
  readonly diff: DiffContext;
  /** The task text, for predicates that care. */
  readonly task: string;
  /** Credential values snodo holds (provider keys, its signing key), for the built-in known-secrets guard. */
  readonly knownSecrets?: readonly string[];
}

/** A predicate's answer. `passed: false` becomes a verdict with the constraint's severity. */
export interface PredicateResult {
  /** Whether the constraint holds. */
  readonly passed: boolean;
  /** Why, naming what was checked. */
  readonly justification: string;
  /** The concrete problems (one per offending file or line). */
  readonly findings?: readonly GateFinding[];
  /** JSON-serialisable details for the audit log. Never a secret. */
  readonly evidence?: Readonly<Record<string, unknown>>;
}

/**
 * A deterministic, read-only check on the diff. `params` is the constraint's `params` block from the
 * protocol (possibly empty); a predicate validates it and throws on nonsense, which the runner turns into
 * an error verdict (fail closed). Embedders add their own through `PredicateRegistry.register`.
 */
export type Predicate = (
  context: PredicateContext,
  params: Readonly<Record<string, unknown>>,
) => PredicateResult;
