import { commitTree, fallbackIdentity, mergeTrees, revParse } from '../git/index.js';
import type { LandingCar } from './landing-train-request.js';

/** One car of a train that still applies, with what its landing commit will be made of. */
export interface TrainCandidate {
  readonly car: LandingCar;
  /** The landing commit's tree: the task's own when it sits on its own base, else the in-memory merge. */
  readonly tree: string;
  /** The commit it sits on (the fetched base, or the previous car's landing), then the task commit. */
  readonly parents: readonly [string, string];
}

/** A car whose change no longer applies on top of what lands before it. */
export interface TrainConflict {
  readonly car: LandingCar;
  readonly reason: string;
  readonly conflictedFiles: readonly string[];
  /**
   * It conflicts with a change landing before it in this train, not with the fetched base: whether it
   * applies depends on that change landing, so it is not settled here; it lands on its own afterwards.
   */
  readonly withTrain: boolean;
}

/** The candidates in landing order, the cars that conflict, and the last candidate commit (the train's tree). */
export interface TrainCandidates {
  readonly candidates: readonly TrainCandidate[];
  readonly conflicts: readonly TrainConflict[];
  /** An unreferenced commit of the last candidate's tree on the chain of candidates (what a re-check checks out). */
  readonly lastCommit: string | undefined;
}

/**
 * Builds a train's landing content on the fetched base, one car after another (a merge train): car 1 merges
 * onto the base, car 2 onto car 1's candidate commit, and so on; a car that conflicts is set aside with the
 * files and the train goes on without it. The candidate commits are unreferenced stand-ins for the landing
 * commits: they have the same trees and parents, so merging onto one gives what merging onto the real
 * landing commit gives, and the last one is what the re-check checks out.
 */
export async function buildTrainCandidates(options: {
  readonly clone: string;
  readonly cars: readonly LandingCar[];
  readonly seenBase: string;
  readonly baseName: string;
}): Promise<TrainCandidates> {
  const { clone, seenBase, baseName } = options;
  const candidates: TrainCandidate[] = [];
  const conflicts: TrainConflict[] = [];
  let tip = seenBase;
  let lastCommit: string | undefined;
  for (const car of options.cars) {
    let tree: string;
    if (tip === car.taskBase) {
      tree = await revParse(clone, `${car.taskCommit}^{tree}`);
    } else {
      const merge = await mergeTrees({ cwd: clone, ours: tip, theirs: car.taskCommit });
      if (merge.conflictedFiles.length > 0) {
        const onWhat =
          tip === seenBase
            ? `${baseName} moved to ${seenBase.slice(0, 12)} since the task started`
            : `${baseName} (${seenBase.slice(0, 12)}) with the changes landing before it in the same train`;
        conflicts.push({
          car,
          reason: `${onWhat} and the change no longer applies: it conflicts in ${merge.conflictedFiles.join(', ')}`,
          conflictedFiles: merge.conflictedFiles,
          withTrain: tip !== seenBase && (await appliesOn(clone, seenBase, car)),
        });
        continue;
      }
      tree = merge.tree;
    }
    const parents = [tip, car.taskCommit] as const;
    candidates.push({ car, tree, parents });
    lastCommit = await commitTree({
      cwd: clone,
      tree,
      parents,
      message: `snodo: candidate landing of job ${car.jobId} on ${baseName} (re-check)\n`,
      identity: fallbackIdentity,
    });
    tip = lastCommit;
  }
  return { candidates, conflicts, lastCommit };
}

/** Whether the car's change merges cleanly onto `base` alone (its conflict then comes from the train). */
async function appliesOn(clone: string, base: string, car: LandingCar): Promise<boolean> {
  if (base === car.taskBase) return true;
  const merge = await mergeTrees({ cwd: clone, ours: base, theirs: car.taskCommit });
  return merge.conflictedFiles.length === 0;
}
