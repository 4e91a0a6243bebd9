import { relative } from 'node:path';
import type { CoderStatus, Sourced, TaskPlan, TaskReadiness } from '@snodo/core';

/** What `snodo run --dry-run` resolves, without creating a job, a worktree or an audit event. */
export interface DryRunPlan {
  readonly dryRun: true;
  readonly task: string;
  readonly repositoryRoot: string;
  readonly protocol: { readonly path: string; readonly id: string; readonly warnings: readonly string[] };
  readonly mode: Sourced<string> & { readonly candidates: readonly string[] };
  readonly coder: Sourced<string> & { readonly displayName: string; readonly kind: string };
  readonly coderStatus: CoderStatus;
  /** Whether the run would start; when not, each reason with the text the run is refused with. */
  readonly readiness: TaskReadiness;
  readonly models: {
    readonly judging: Sourced<string | null>;
    readonly classifier: Sourced<string | null>;
    readonly coder: Sourced<string | null>;
  };
  readonly gates: {
    readonly preExecute: readonly { readonly id: string; readonly type: string }[];
    readonly postExecute: readonly { readonly id: string; readonly type: string }[];
    readonly constraints: readonly {
      readonly id: string;
      readonly predicate: string | null;
      readonly severity: string;
    }[];
  };
  readonly policy: string;
  readonly merge: Sourced<string>;
  readonly base: Sourced<string> & { readonly commit: string };
  readonly isolation: { readonly mode: 'repository' | 'none'; readonly directory: string };
  readonly timeoutSeconds: Sourced<number>;
  readonly maxFixAttempts: number;
  /** The job's caps with their sources; `null` for a cap that is not set. */
  readonly budget: DryRunBudget;
}

/** The caps of `--dry-run`, each with its source (`flag`, `protocol`). */
export interface DryRunBudget {
  readonly maxCostUsd: Sourced<number> | null;
  readonly maxTokens: Sourced<number> | null;
}

function sourced<T>(value: T, source: string): Sourced<T> {
  return { value, source };
}

/**
 * The plan core computed (`planTask`, the same decisions `runTask` takes) in the shape `--dry-run --json`
 * prints. Only renders: every value and source is core's.
 */
export function toDryRunPlan(plan: TaskPlan): DryRunPlan {
  const { selection } = plan;
  const gate = (validator: { validator_id: string; validator_type: string }) => ({
    id: validator.validator_id,
    type: validator.validator_type,
  });
  const role = (resolved: { model: string | undefined; source: string }) =>
    sourced(resolved.model ?? null, resolved.source);
  return {
    dryRun: true,
    task: plan.task,
    repositoryRoot: plan.repositoryRoot,
    protocol: {
      path: relative(plan.repositoryRoot, plan.protocol.path),
      id: plan.protocol.id,
      warnings: plan.protocol.warnings.map(
        (issue) => `${issue.file}:${issue.line}:${issue.column}: ${issue.message}`,
      ),
    },
    mode: {
      value: plan.mode.mode.mode_id,
      source: plan.mode.source,
      candidates: plan.mode.candidates.map((mode) => mode.mode_id),
    },
    coder: {
      value: selection.registration.id,
      source: selection.coder.source,
      displayName: selection.registration.displayName,
      kind: selection.registration.kind,
    },
    coderStatus: plan.coderStatus,
    readiness: plan.readiness,
    models: {
      judging: role(selection.models.judging),
      classifier: role(selection.models.classifier),
      coder: role(selection.models.coder),
    },
    gates: {
      preExecute: plan.gates.preExecute.map(gate),
      postExecute: plan.gates.postExecute.map(gate),
      constraints: plan.gates.constraints.map((constraint) => ({
        id: constraint.constraint_id,
        predicate: constraint.predicate ?? null,
        severity: constraint.severity,
      })),
    },
    policy: plan.policy,
    merge: plan.merge,
    base: { value: plan.base.baseBranch, source: plan.base.source, commit: plan.base.baseCommit },
    isolation: plan.isolation,
    timeoutSeconds: plan.coderTimeout,
    maxFixAttempts: plan.maxFixAttempts,
    budget: { maxCostUsd: plan.budget.maxCostUsd ?? null, maxTokens: plan.budget.maxTokens ?? null },
  };
}
