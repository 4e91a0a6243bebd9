import { commitTree, fallbackIdentity, mergeTrees, revParse } from '../git/index.js';
import type { RecheckGateRecord, RemoteLandingRequest } from './remote-landing-request.js';

/** What the landing commit will be made of, or why there is none. */
export type LandingCandidate =
  | {
      readonly kind: 'ready';
      readonly tree: string;
      /** The remote base as seen, then the task commit: first-parent history stays the base's. */
      readonly parents: readonly [string, string];
      readonly recheck: 'not-needed' | 'passed' | 'not-given';
      readonly recheckGates?: readonly RecheckGateRecord[];
    }
  | {
      readonly kind: 'kept';
      readonly reason: string;
      readonly conflictedFiles?: readonly string[];
      readonly recheckGates?: readonly RecheckGateRecord[];
    };

/**
 * Decides the landing commit's content on top of the base as the lander just fetched it (`seenBase`).
 * Unchanged base: the task's own tree. Moved base: the change must still apply (an in-memory
 * `merge-tree`; a conflict keeps the job, naming the files) and, when the request gives `recheck`, the
 * deterministic gates must pass again on the merged result. Writes only unreferenced objects.
 */
export async function prepareLandingCandidate(
  request: RemoteLandingRequest,
  seenBase: string,
  baseName: string,
): Promise<LandingCandidate> {
  const parents = [seenBase, request.taskCommit] as const;
  if (seenBase === request.taskBase) {
    const tree = await revParse(request.clone, `${request.taskCommit}^{tree}`);
    return { kind: 'ready', tree, parents, recheck: 'not-needed' };
  }
  const merge = await mergeTrees({ cwd: request.clone, ours: seenBase, theirs: request.taskCommit });
  if (merge.conflictedFiles.length > 0) {
    return {
      kind: 'kept',
      reason:
        `${baseName} moved to ${seenBase.slice(0, 12)} since the task started and the change no longer applies: ` +
        `it conflicts in ${merge.conflictedFiles.join(', ')}`,
      conflictedFiles: merge.conflictedFiles,
    };
  }
  if (request.recheck === undefined)
    return { kind: 'ready', tree: merge.tree, parents, recheck: 'not-given' };
  const candidate = await commitTree({
    cwd: request.clone,
    tree: merge.tree,
    parents,
    message: `snodo: candidate landing of job ${request.jobId} on ${baseName} (re-check)\n`,
    identity: fallbackIdentity,
  });
  let verdict: Awaited<ReturnType<NonNullable<RemoteLandingRequest['recheck']>>>;
  try {
    verdict = await request.recheck({ commit: candidate, base: seenBase });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { kind: 'kept', reason: `the re-check on top of ${baseName} could not run: ${detail}` };
  }
  const recheckGates = verdict.gates === undefined ? {} : { recheckGates: verdict.gates };
  if (!verdict.ok) {
    return {
      kind: 'kept',
      reason: `${baseName} moved to ${seenBase.slice(0, 12)} and the re-check on top of it failed: ${verdict.reason}`,
      ...recheckGates,
    };
  }
  return { kind: 'ready', tree: merge.tree, parents, recheck: 'passed', ...recheckGates };
}
