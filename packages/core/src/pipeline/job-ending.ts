import {
  CoderAbortedError,
  GitMetadataTamperedError,
  SnodoError,
  SnodoMutationError,
} from '@snodo/coder-sdk';
import { GateCommandUnavailableError } from '../gates/gate-command-unavailable-error.js';
import { type GateVerdict, type PolicyDecision, SNODO_MUTATION_GUARD_ID } from '../gates/index.js';
import { RepositoryTamperedError, type TamperFinding } from '../guard/index.js';
import type { JobStatus } from '../jobs/index.js';
import { ProposalPathRefusedError } from '../workspace/index.js';
import type { LandingRecord } from './stage-land.js';

/** How a job ends: its final status, the specific outcome, one line for people, and any error behind it. */
export interface JobEnding {
  readonly status: JobStatus;
  readonly outcome: string;
  readonly summary: string;
  readonly error?: { readonly code: string; readonly message: string };
  readonly landing?: LandingRecord;
  /** What the repository guard found, when the job halted as `repository_tampered`. */
  readonly tamper?: { readonly during: string; readonly findings: readonly TamperFinding[] };
  /** What `snodo task approve` needs besides the reason (`--budget <usd>` for a job stopped at its budget). */
  readonly approveFlags?: string;
}

function firstFailing(
  verdicts: readonly GateVerdict[],
  predicate: (verdict: GateVerdict) => boolean,
): string {
  const found = verdicts.filter(predicate);
  return found
    .map((verdict) => `${verdict.gateId}: ${verdict.justification}`)
    .slice(0, 3)
    .join('; ');
}

/**
 * The outage behind a halt, when every gate that stopped the job could not decide because of the
 * environment (a provider unreachable, failing, rate limiting or refusing the key; a gate's tool missing)
 * and none decided against the change: then the job failed (exit 3), it was not rejected (exit 1).
 */
function outageEnding(
  decision: PolicyDecision,
  verdicts: readonly GateVerdict[],
  where: string,
): JobEnding | undefined {
  if (decision.action !== 'halt') return undefined;
  const stopping = verdicts.filter((verdict) => verdict.error || verdict.severity === 'blocker');
  const outages = stopping.filter((verdict) => verdict.cause?.kind === 'environment');
  const [first] = outages;
  if (first?.cause === undefined || outages.length !== stopping.length) return undefined;
  const message =
    first.cause.code === 'GATE_COMMAND_UNAVAILABLE'
      ? new GateCommandUnavailableError({ gateId: first.gateId, reason: first.cause.message }).message
      : first.cause.message;
  return {
    status: 'failed',
    outcome: 'gate_unavailable',
    summary: `A gate could not decide ${where} because of the environment, not the change: ${firstFailing(outages, () => true)}`,
    error: { code: first.cause.code, message },
  };
}

/** The ending of a phase whose gates did not let the job go on. */
export function endingFromDecision(
  phase: 'pre_execute' | 'post_execute',
  decision: PolicyDecision,
  verdicts: readonly GateVerdict[],
): JobEnding {
  const where =
    phase === 'pre_execute' ? 'before the coder ran (nothing was changed)' : 'after the coder ran';
  const outage = outageEnding(decision, verdicts, where);
  if (outage !== undefined) return outage;
  if (decision.action === 'escalate') {
    return {
      status: 'halted',
      outcome: 'escalated',
      summary: `The gates did not agree ${where}: ${decision.justification}`,
    };
  }
  if (decision.haltReason === 'validator_error') {
    return {
      status: 'halted',
      outcome: 'validator_error',
      summary: `A gate could not produce a verdict ${where}, so snodo stopped (fail closed): ${firstFailing(verdicts, (verdict) => verdict.error)}`,
    };
  }
  if (
    verdicts.some((verdict) => verdict.gateId === SNODO_MUTATION_GUARD_ID && verdict.severity === 'blocker')
  ) {
    return {
      status: 'halted',
      outcome: 'snodo_mutation_blocked',
      summary: 'The change touches .snodo/, which coders may not change; it was not merged.',
    };
  }
  return {
    status: 'halted',
    outcome: 'blocker',
    summary: `A gate found a blocker ${where}: ${firstFailing(verdicts, (verdict) => verdict.severity === 'blocker')}`,
  };
}

/** The ending of a job stopped by an error, classified so the CLI can pick the exit code. */
export function endingFromError(error: unknown, cancelled: boolean): JobEnding {
  const message = error instanceof Error ? error.message : String(error);
  const code = SnodoError.isInstance(error) ? error.code : 'INTERNAL_ERROR';
  const recorded = { code, message };
  if (cancelled || CoderAbortedError.isInstance(error)) {
    return {
      status: 'cancelled',
      outcome: 'cancelled',
      summary: 'The run was cancelled; the job is kept.',
      error: recorded,
    };
  }
  if (RepositoryTamperedError.isInstance(error)) {
    return {
      status: 'halted',
      outcome: 'repository_tampered',
      summary: message,
      error: recorded,
      tamper: { during: error.during, findings: error.findings },
    };
  }
  if (SnodoMutationError.isInstance(error)) {
    return { status: 'halted', outcome: 'snodo_mutation_blocked', summary: message, error: recorded };
  }
  if (GitMetadataTamperedError.isInstance(error)) {
    return { status: 'halted', outcome: 'git_metadata_tampered', summary: message, error: recorded };
  }
  if (ProposalPathRefusedError.isInstance(error)) {
    return { status: 'halted', outcome: 'proposal_refused', summary: message, error: recorded };
  }
  return { status: 'failed', outcome: code.toLowerCase(), summary: message, error: recorded };
}
