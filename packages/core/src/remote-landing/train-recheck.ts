import type { LandingTrainRequest, TrainRecheckVerdict } from './landing-train-request.js';
import type { RecheckGateRecord } from './remote-landing-request.js';
import type { TrainCandidate } from './train-candidates.js';

/** What the re-check of a train decided: the `recheck` every landing event records, or why it failed. */
export type TrainRecheckOutcome =
  | { readonly kind: 'not-needed' | 'not-given' }
  | { readonly kind: 'passed'; readonly gates?: readonly RecheckGateRecord[] }
  | { readonly kind: 'failed'; readonly reason: string; readonly gates?: readonly RecheckGateRecord[] };

/**
 * Re-checks the train's last candidate once, when any car sits on something other than the base its task
 * started from (the base moved, or another car lands before it): the deterministic gates on every change of
 * the train merged together. A train of one on an unchanged base needs none; without `request.recheck` only
 * "the change still applies" was checked (`not-given`).
 */
export async function trainRecheck(
  request: LandingTrainRequest,
  candidates: readonly TrainCandidate[],
  lastCommit: string,
  seenBase: string,
  baseName: string,
): Promise<TrainRecheckOutcome> {
  const needed = candidates.some((candidate) => candidate.parents[0] !== candidate.car.taskBase);
  if (!needed) return { kind: 'not-needed' };
  if (request.recheck === undefined) return { kind: 'not-given' };
  let verdict: TrainRecheckVerdict;
  try {
    verdict = await request.recheck({
      commit: lastCommit,
      base: seenBase,
      jobIds: candidates.map((candidate) => candidate.car.jobId),
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', reason: `the re-check on top of ${baseName} could not run: ${detail}` };
  }
  const gates = verdict.gates === undefined ? {} : { gates: verdict.gates };
  if (verdict.ok) return { kind: 'passed', ...gates };
  const what =
    candidates.length === 1
      ? `${baseName} moved to ${seenBase.slice(0, 12)} and the re-check on top of it failed`
      : `the re-check of the train (${candidates.length} landings on ${baseName} at ${seenBase.slice(0, 12)}) failed`;
  return { kind: 'failed', reason: `${what}: ${verdict.reason}`, ...gates };
}
