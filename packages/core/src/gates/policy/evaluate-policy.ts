import type { GateVerdict } from '../gate-verdict.js';

/** How validators that disagree are resolved (`disagreement_policy` in the protocol). */
export type DisagreementPolicy = 'unanimous' | 'majority' | 'quorum' | 'any';

/** What the pipeline does after a phase. */
export type PolicyAction = 'proceed' | 'proceed_with_log' | 'escalate' | 'halt';

/** Why a phase halted: a gate could not produce a verdict, or a gate found a blocker. */
export type HaltReason = 'validator_error' | 'blocker';

/** Verdict counts. `error` verdicts are counted only under `error`, whatever their severity. */
export interface SeverityCounts {
  /** Verdicts that passed. */
  readonly pass: number;
  /** Verdicts that warned (withholding approval). */
  readonly warn: number;
  /** Verdicts that found a blocker. */
  readonly blocker: number;
  /** Verdicts that could not be produced. */
  readonly error: number;
  /** All of them. */
  readonly total: number;
}

/** The policy's decision on one phase, recorded in the audit log and `state.json`. */
export interface PolicyDecision {
  /** What to do next. */
  readonly action: PolicyAction;
  /** Set when `action` is `halt`. */
  readonly haltReason?: HaltReason;
  /** The policy applied. */
  readonly policy: DisagreementPolicy;
  /** The vote: judges and command gates (constraints never vote). */
  readonly counts: SeverityCounts;
  /** The constraints' verdicts, which can halt or add a log entry but never vote. */
  readonly constraintCounts: SeverityCounts;
  /** One or two sentences for the user and the log. */
  readonly justification: string;
}

/** The protocol's policy settings. */
export interface EvaluatePolicyOptions {
  /** `disagreement_policy`; default `unanimous` (the protocol's default). */
  readonly policy?: DisagreementPolicy;
  /** `quorum_threshold`, in (0, 1]; default 0.67. */
  readonly quorumThreshold?: number;
}

/** The protocol's default `quorum_threshold`. */
export const DEFAULT_QUORUM_THRESHOLD = 0.67;

// Absorbs binary floating-point noise in `threshold × total` (0.7 × 10 = 7.000000000000001).
const epsilon = 1e-9;

function count(verdicts: readonly GateVerdict[]): SeverityCounts {
  let pass = 0;
  let warn = 0;
  let blocker = 0;
  let error = 0;
  for (const verdict of verdicts) {
    if (verdict.error) error += 1;
    else if (verdict.severity === 'pass') pass += 1;
    else if (verdict.severity === 'warn') warn += 1;
    else blocker += 1;
  }
  return { pass, warn, blocker, error, total: verdicts.length };
}

function names(verdicts: readonly GateVerdict[], keep: (verdict: GateVerdict) => boolean): string {
  return verdicts
    .filter(keep)
    .map((verdict) => verdict.gateId)
    .join(', ');
}

/**
 * Decides a phase from its verdicts, in this order:
 * 1. any `error` verdict (judge, command gate or constraint) → `halt` / `validator_error` (fail closed);
 * 2. any `blocker` → `halt` / `blocker`; nothing overrides it;
 * 3. the vote of judges and command gates, counting passes only (a warn withholds approval):
 *    `unanimous` all pass, `majority` more than half, `quorum` at least threshold × total, `any` at least
 *    one. Met → `proceed`, or `proceed_with_log` when any gate warned (a constraint's warn included);
 *    not met → `escalate` to a human.
 * Constraints never vote: a constraint that holds is not an approval of the change, and counting it
 * would dilute the judges' vote. A phase with no voting gate at all (no validators in this phase, or no
 * verdicts) proceeds, with a note saying so: gating nothing is the protocol author's choice, and
 * halting there would make a gate-less phase unusable.
 */
export function evaluatePolicy(
  verdicts: readonly GateVerdict[],
  options: EvaluatePolicyOptions = {},
): PolicyDecision {
  const policy = options.policy ?? 'unanimous';
  const threshold = options.quorumThreshold ?? DEFAULT_QUORUM_THRESHOLD;
  if (!['unanimous', 'majority', 'quorum', 'any'].includes(policy)) {
    throw new TypeError(`unknown disagreement_policy "${policy}"; use unanimous, majority, quorum or any`);
  }
  if (!(threshold > 0 && threshold <= 1)) {
    throw new TypeError(`quorum_threshold must be in (0, 1], got ${threshold}`);
  }
  const votes = verdicts.filter((verdict) => verdict.kind !== 'constraint');
  const constraints = verdicts.filter((verdict) => verdict.kind === 'constraint');
  const counts = count(votes);
  const constraintCounts = count(constraints);
  const decide = (action: PolicyAction, justification: string, haltReason?: HaltReason): PolicyDecision => ({
    action,
    ...(haltReason ? { haltReason } : {}),
    policy,
    counts,
    constraintCounts,
    justification,
  });
  if (counts.error + constraintCounts.error > 0) {
    return decide(
      'halt',
      `Halted: ${names(verdicts, (verdict) => verdict.error)} could not produce a verdict; snodo fails closed.`,
      'validator_error',
    );
  }
  if (counts.blocker + constraintCounts.blocker > 0) {
    return decide(
      'halt',
      `Halted: blocker from ${names(verdicts, (verdict) => verdict.severity === 'blocker')}.`,
      'blocker',
    );
  }
  const warned = counts.warn + constraintCounts.warn > 0;
  const warnNote = warned
    ? ` Warnings from ${names(verdicts, (verdict) => verdict.severity === 'warn')}.`
    : '';
  if (counts.total === 0) {
    const what =
      verdicts.length === 0 ? 'No gate ran in this phase' : 'No judge or command gate ran in this phase';
    return decide(warned ? 'proceed_with_log' : 'proceed', `${what}; nothing to vote on.${warnNote}`);
  }
  const required =
    policy === 'unanimous'
      ? counts.total
      : policy === 'majority'
        ? Math.floor(counts.total / 2) + 1
        : policy === 'quorum'
          ? Math.ceil(threshold * counts.total - epsilon)
          : 1;
  const tally = `${counts.pass} of ${counts.total} passed; ${policy}${policy === 'quorum' ? ` (${threshold})` : ''} needs ${required}.`;
  if (counts.pass >= required) {
    return decide(warned ? 'proceed_with_log' : 'proceed', `Approved: ${tally}${warnNote}`);
  }
  return decide(
    'escalate',
    `Not approved: ${tally}${warnNote} A human decides: snodo task approve|reject <job>.`,
  );
}
