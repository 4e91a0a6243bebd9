import { filesInScope } from './files-in-scope.js';
import { noSecretsInDiff } from './no-secrets-in-diff.js';
import type { Predicate } from './predicate.js';
import { testsExistForModified } from './tests-exist-for-modified.js';

/**
 * The predicate names a protocol may use out of the box (checked by well-formedness rule WF5). The
 * `.snodo` mutation guard is not among them: it is not declared, it always runs.
 */
export const BUILT_IN_PREDICATE_NAMES: readonly string[] = [
  'files_in_scope',
  'tests_exist_for_modified',
  'no_secrets_in_diff',
];

/** Name → predicate. One per run (or per embedder), never a module-level singleton. */
export interface PredicateRegistry {
  /** The predicate registered under `name`, if any. */
  get(name: string): Predicate | undefined;
  /** Whether `name` is registered. */
  has(name: string): boolean;
  /**
   * Adds a predicate, or replaces one of the same name (an embedder may swap in a stricter
   * `no_secrets_in_diff`). The `.snodo` guard cannot be replaced: it is not looked up here.
   */
  register(name: string, predicate: Predicate): void;
  /** Every registered name, in registration order (for WF5 and "did you mean" messages). */
  names(): string[];
}

/** A registry holding the built-in predicates. */
export function createPredicateRegistry(): PredicateRegistry {
  const predicates = new Map<string, Predicate>([
    ['files_in_scope', filesInScope],
    ['tests_exist_for_modified', testsExistForModified],
    ['no_secrets_in_diff', noSecretsInDiff],
  ]);
  return {
    get: (name) => predicates.get(name),
    has: (name) => predicates.has(name),
    register: (name, predicate) => {
      if (name.trim() === '') throw new TypeError('a predicate name must not be empty');
      predicates.set(name, predicate);
    },
    names: () => [...predicates.keys()],
  };
}
