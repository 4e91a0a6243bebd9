import { describeError, startStopwatch } from '../elapsed.js';
import type { GateConstraintSpec } from '../gate-constraint-spec.js';
import type { GateVerdict } from '../gate-verdict.js';
import { isSeverity } from '../severity.js';
import { KNOWN_SECRETS_GUARD_ID, knownSecretsGuard } from './known-secrets-guard.js';
import type { Predicate, PredicateContext } from './predicate.js';
import type { PredicateRegistry } from './predicate-registry.js';
import { SNODO_MUTATION_GUARD_ID, snodoMutationGuard } from './snodo-mutation-guard.js';
import { SYMLINK_GUARD_ID, workspaceSymlinkGuard } from './workspace-symlink-guard.js';

function errorVerdict(spec: GateConstraintSpec, gateType: string, justification: string, durationMs: number) {
  const verdict: GateVerdict = {
    gateId: spec.constraint_id,
    gateType,
    kind: 'constraint',
    phase: 'post_execute',
    severity: 'blocker',
    justification,
    findings: [],
    error: true,
    evidence: { predicate: gateType },
    durationMs,
  };
  return verdict;
}

function run(
  spec: GateConstraintSpec,
  predicateName: string,
  predicate: Predicate,
  context: PredicateContext,
  elapsed: () => number,
): GateVerdict {
  const failureSeverity = spec.severity ?? 'blocker';
  if (!isSeverity(failureSeverity)) {
    return errorVerdict(
      spec,
      predicateName,
      `Constraint ${spec.constraint_id} has severity "${failureSeverity}"; use pass, warn or blocker.`,
      elapsed(),
    );
  }
  let result: ReturnType<Predicate>;
  try {
    result = predicate(context, spec.params ?? {});
  } catch (error) {
    return errorVerdict(
      spec,
      predicateName,
      `Predicate ${predicateName} of constraint ${spec.constraint_id} failed to evaluate: ${describeError(error)}. ` +
        'Fix its params in .snodo/protocol.yml.',
      elapsed(),
    );
  }
  const description = spec.description ? ` (${spec.description})` : '';
  return {
    gateId: spec.constraint_id,
    gateType: predicateName,
    kind: 'constraint',
    phase: 'post_execute',
    severity: result.passed ? 'pass' : failureSeverity,
    justification: result.passed
      ? result.justification
      : `${spec.constraint_id}${description}: ${result.justification}`,
    findings: result.passed ? [] : [...(result.findings ?? [])],
    error: false,
    evidence: { predicate: predicateName, passed: result.passed, ...result.evidence },
    durationMs: elapsed(),
  };
}

/**
 * Evaluates one declared constraint on the diff. An unknown predicate or a predicate that throws is an
 * error verdict (blocker, `error: true`: fail closed); a failure carries the constraint's `severity`
 * (default blocker). A constraint without a predicate is documentation only: it yields a `pass` that
 * says it was not evaluated, so it is visible rather than silently skipped, and never votes.
 */
export function evaluateConstraint(
  spec: GateConstraintSpec,
  context: PredicateContext,
  registry: PredicateRegistry,
): GateVerdict {
  const elapsed = startStopwatch();
  const name = spec.predicate ?? undefined;
  if (name === undefined || name.trim() === '') {
    return {
      gateId: spec.constraint_id,
      gateType: 'documentation',
      kind: 'constraint',
      phase: 'post_execute',
      severity: 'pass',
      justification: `Constraint ${spec.constraint_id} has no predicate; it documents intent and is not evaluated.`,
      findings: [],
      error: false,
      evidence: { evaluated: false },
      durationMs: elapsed(),
    };
  }
  const predicate = registry.get(name);
  if (predicate === undefined) {
    return errorVerdict(
      spec,
      name,
      `Constraint ${spec.constraint_id} uses unknown predicate "${name}"; known predicates: ` +
        `${registry.names().join(', ')}. Fix the predicate name in .snodo/protocol.yml.`,
      elapsed(),
    );
  }
  return run(spec, name, predicate, context, elapsed);
}

/** The built-in guards no protocol can remove, in the order they are reported. */
const builtInGuards: readonly (readonly [string, Predicate])[] = [
  [SNODO_MUTATION_GUARD_ID, snodoMutationGuard],
  [SYMLINK_GUARD_ID, workspaceSymlinkGuard],
  [KNOWN_SECRETS_GUARD_ID, knownSecretsGuard],
];

/**
 * Evaluates the built-in guards (always blockers on failure): nothing under `.snodo/`, no symbolic link
 * leaving the repository, no credential snodo holds in the change.
 */
export function evaluateBuiltInGuards(context: PredicateContext): GateVerdict[] {
  return builtInGuards.map(([id, predicate]) =>
    run({ constraint_id: id, severity: 'blocker' }, id, predicate, context, startStopwatch()),
  );
}
