import type { GateVerdict } from '../gate-verdict.js';
import type { PolicyDecision } from './evaluate-policy.js';

/** Fix-loop settings from the protocol's `execution` block. */
export interface RecoverabilityOptions {
  /** `execution.fix_failing_tests`: failing command gates may be fixed by another coder attempt. */
  readonly fixFailingTests?: boolean;
}

/** Whether the fix loop may re-run the coder, and why (for the audit log). */
export interface Recoverability {
  /** `true` when another coder attempt with the findings may resolve the failure. */
  readonly recoverable: boolean;
  /** Why, naming the gates that decided it. */
  readonly reason: string;
}

/** A command gate failure the coder can act on: the command ran and failed or hung, rather than not starting. */
function isFixableCommandFailure(verdict: GateVerdict): boolean {
  const outcome = verdict.evidence?.outcome;
  return outcome === 'exited' || outcome === 'timed-out';
}

/**
 * Decides whether a post-execute halt or escalation may be retried by the coder with the gate feedback
 * (up to `execution.max_fix_attempts`). Recoverable: an escalation (warns withheld approval), blockers
 * that a `severity_cap` lowered to a warn, and failing command gates when `fixFailingTests` is on.
 * Never recoverable: a finding with a `cause` (the environment's or the configuration's: a provider
 * outage, a missing tool, no test command), any `error` verdict, a judge blocker that was not capped, a constraint blocker (scope, secrets, the `.snodo` guard), or a command that could not
 * start. A phase that proceeds has nothing to recover.
 */
export function assessRecoverability(
  verdicts: readonly GateVerdict[],
  decision: PolicyDecision,
  options: RecoverabilityOptions = {},
): Recoverability {
  if (decision.action === 'proceed' || decision.action === 'proceed_with_log') {
    return { recoverable: false, reason: 'The phase proceeds; there is nothing to fix.' };
  }
  // Findings only the environment or the protocol's author can fix (an outage, a missing tool, no test
  // command, no model) are never the coder's to fix: another attempt would spend tokens on nothing.
  const notTheCoders = verdicts.filter(
    (verdict) => verdict.cause !== undefined && (verdict.error || verdict.severity !== 'pass'),
  );
  if (notTheCoders.length > 0) {
    return {
      recoverable: false,
      reason: `Not recoverable by the coder: ${notTheCoders
        .map(
          (verdict) =>
            `${verdict.gateId} (${verdict.cause?.kind === 'environment' ? 'environment' : 'configuration'})`,
        )
        .join(', ')}.`,
    };
  }
  const errors = verdicts.filter((verdict) => verdict.error);
  if (errors.length > 0) {
    return {
      recoverable: false,
      reason: `${errors.map((verdict) => verdict.gateId).join(', ')} could not produce a verdict; a coder retry cannot fix that.`,
    };
  }
  const unrecoverable: string[] = [];
  const fixable: string[] = [];
  for (const verdict of verdicts) {
    if (verdict.severity === 'blocker') {
      if (verdict.kind === 'command' && options.fixFailingTests && isFixableCommandFailure(verdict)) {
        fixable.push(`${verdict.gateId} (failing command)`);
      } else {
        const why =
          verdict.kind === 'constraint'
            ? 'constraint blocker'
            : verdict.kind === 'command'
              ? options.fixFailingTests
                ? 'command could not run'
                : 'failing command, execution.fix_failing_tests is off'
              : 'judge blocker';
        unrecoverable.push(`${verdict.gateId} (${why})`);
      }
    } else if (verdict.capped && verdict.originalSeverity === 'blocker') {
      fixable.push(`${verdict.gateId} (blocker capped to ${verdict.severity})`);
    } else if (verdict.severity === 'warn') {
      fixable.push(`${verdict.gateId} (warn)`);
    }
  }
  if (unrecoverable.length > 0) {
    return { recoverable: false, reason: `Not recoverable: ${unrecoverable.join(', ')}.` };
  }
  return {
    recoverable: true,
    reason:
      fixable.length > 0
        ? `Recoverable by another coder attempt: ${fixable.join(', ')}.`
        : 'Recoverable: the phase escalated without a blocker.',
  };
}

/** `assessRecoverability(...).recoverable`. */
export function isRecoverable(
  verdicts: readonly GateVerdict[],
  decision: PolicyDecision,
  options: RecoverabilityOptions = {},
): boolean {
  return assessRecoverability(verdicts, decision, options).recoverable;
}
