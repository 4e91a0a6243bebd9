import { commitTree } from '../git/commit-tree.js';
import { compareAndSwapReference } from '../git/compare-and-swap-reference.js';
import { diffNameStatus } from '../git/diff-name-status.js';
import type { GitIdentity } from '../git/git-identity.js';
import { mergeTrees } from '../git/merge-trees.js';
import { relateCommits, resolveCommits, revParse } from '../git/rev-parse.js';
import {
  appendLandingLedger,
  removeLandingJournal,
  writeLandingJournal,
} from '../landing/landing-journal.js';
import {
  type BaseCheckoutsRead,
  checkoutOverlap,
  readBaseCheckouts,
  updateCheckouts,
} from './base-checkout.js';
import { IsolationFailedError } from './isolation-failed-error.js';
import type { LandTaskBranchOptions, LandTaskBranchResult } from './land-task-branch.js';

/** The repository and base a train lands on, shared by its cars. */
export interface LandingScope {
  readonly repositoryRoot: string;
  readonly gitCommonDirectory: string;
  /** `refs/heads/<base>`. */
  readonly baseRef: string;
  /** The base's short name, for messages. */
  readonly baseName: string;
  /** The identity of a merge or squash commit, looked up once when one is needed. */
  readonly identity: () => Promise<GitIdentity>;
}

/** One task branch to land: what `landTaskBranch` was given, checked and worded before the lock. */
export interface LandingCar {
  readonly jobId: string;
  /** The task branch's short name. */
  readonly branch: string;
  /** `refs/heads/<branch>`. */
  readonly taskRef: string;
  readonly strategy: Exclude<LandTaskBranchOptions['strategy'], 'none'>;
  /** The merge or squash commit's message, trailers included. */
  readonly commitMessage: string;
  /** The command that updates the task branch by hand, for the conflict and fast-forward messages. */
  readonly updateCommand: (action: 'merge' | 'rebase') => string;
  readonly checkBase?: LandTaskBranchOptions['checkBase'];
  readonly knownChangedPaths?: LandTaskBranchOptions['knownChangedPaths'];
  readonly testHooks?: LandTaskBranchOptions['testHooks'];
}

/** How one car ended: a result, or the error `landTaskBranch` throws for it. */
export type CarOutcome = { readonly result: LandTaskBranchResult } | { readonly error: Error };

/** One car's move of the base within a train: from the tip before it to the commit it adds. */
interface CarMove {
  readonly index: number;
  readonly car: LandingCar;
  readonly from: string;
  readonly to: string;
  readonly fastForward: boolean;
  readonly changedPaths: readonly string[];
}

/** How often a base that moves under us (the user committing) is re-read before giving up. */
const maxAttempts = 5;

/**
 * Lands `cars` on the base in order, in one hold of the merge lock (the caller holds it): each car's commit is
 * built on the one before (an in-memory merge first, so a conflict changes nothing), then the base moves
 * once, by compare-and-swap from the tip read here to the last car's commit, and every checkout of the base
 * is brought along with one two-way read-tree. A car that cannot land (conflict, refused base, the user's
 * uncommitted work on its paths, ff-only that is no fast-forward) is left out with its result and the
 * others go on; one car is exactly a single landing. Returns each car's outcome, in order.
 */
export async function landCars(scope: LandingScope, cars: readonly LandingCar[]): Promise<CarOutcome[]> {
  const { repositoryRoot, baseRef, baseName } = scope;
  const fail = (message: string): Error => new IsolationFailedError({ operation: 'land', message });
  // The last attempt's outcomes, and the cars it judged on top of another car's commit (their results, or
  // their own move, stand or fall with that commit reaching the base).
  let outcomes: (CarOutcome | undefined)[] = [];
  let onTrain = new Set<number>();
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const [current, ...tips] = await resolveCommits(repositoryRoot, [
      baseRef,
      ...cars.map((car) => car.taskRef),
    ]);
    if (current === undefined) {
      const error = fail(`The base branch ${baseName} no longer exists; recreate it or land elsewhere.`);
      return cars.map(() => ({ error }));
    }
    outcomes = cars.map(() => undefined);
    onTrain = new Set<number>();
    const moves: CarMove[] = [];
    let tip = current;
    let read: BaseCheckoutsRead | undefined;
    // The base checks judge `current`, the same for every car, not the tip the cars before leave: they run
    // side by side here instead of one car after another (a moved base costs each car three git reads).
    const refusals = cars.map((car, index) => baseRefusal(car, current, tips[index]));
    for (const [index, car] of cars.entries()) {
      const taskTip = tips[index];
      if (taskTip === undefined) {
        outcomes[index] = { error: fail(`The task branch ${car.branch} disappeared while landing.`) };
        continue;
      }
      try {
        const settled = await planCar(scope, car, { current, tip, taskTip, refusal: refusals[index] });
        // A result judged against another car's commit stands or falls with it; a base check's refusal is
        // judged against the base itself and always stands.
        if (tip !== current && !('refusedByCheck' in settled)) onTrain.add(index);
        if ('result' in settled) {
          outcomes[index] = { result: settled.result };
          continue;
        }
        read ??= await readBaseCheckouts(scope);
        const deferral = read.blocked ?? checkoutOverlap(read.checkouts, settled.changedPaths);
        if (deferral !== undefined) {
          const { checkoutPath, overlappingPaths, reason } = deferral;
          outcomes[index] = {
            result: deferred(
              car,
              baseName,
              current,
              overlappingPaths,
              `${checkoutPath} has ${baseName} checked out and ${reason}`,
            ),
          };
          continue;
        }
        moves.push({ index, car, from: tip, ...settled });
        tip = settled.to;
      } catch (error) {
        outcomes[index] = { error: error as Error };
      }
    }
    if (read === undefined || moves.length === 0) return settle(outcomes);

    for (const move of moves) await move.car.testHooks?.beforeBaseUpdate?.(attempt);
    const lead = (moves[0] as CarMove).car;
    // The journal goes to disk before the ref moves: a crash between the move and the checkout update is
    // finished by the next start (see recoverInterruptedLandings) instead of leaving the user's checkout
    // showing the merge reversed. A train's journal is its first car's, covering the whole move.
    const whole = { jobId: lead.jobId, baseRef, from: current, to: tip };
    const moving = moves.map(({ car, from, to }) => ({ jobId: car.jobId, from, to }));
    writeLandingJournal(repositoryRoot, {
      ...whole,
      checkouts: read.checkouts.map((checkout) => checkout.path),
      ...(moving.length > 1 ? { cars: moving } : {}),
    });
    const swapped = await compareAndSwapReference({
      cwd: repositoryRoot,
      reference: baseRef,
      next: tip,
      expected: current,
      reflogMessage: reflogMessage(moves.map((move) => move.car)),
    });
    if (!swapped) {
      removeLandingJournal(repositoryRoot, lead.jobId);
      continue;
    }
    for (const move of moving) appendLandingLedger(repositoryRoot, { ...move, baseRef });
    try {
      const changedPaths = new Set(moves.flatMap((move) => move.changedPaths));
      const updated = await updateCheckouts(read.checkouts, current, tip, changedPaths);
      if (updated.failure !== undefined) {
        const restored = await compareAndSwapReference({
          cwd: repositoryRoot,
          reference: baseRef,
          next: current,
          expected: tip,
          reflogMessage: `snodo: undo landing of ${moves.map((move) => move.car.branch).join(', ')} (job ${lead.jobId})`,
        });
        if (!restored) {
          const error = fail(
            `${baseName} was moved to ${tip} but updating ${updated.failure.path} failed and ${baseName} moved again, ` +
              `so snodo could not undo it. Check \`git status\` there. git said: ${updated.failure.detail}`,
          );
          // The base kept the train's commits: what the other cars were told of them still holds.
          for (const move of moves) outcomes[move.index] = { error };
          return settle(outcomes);
        }
        appendLandingLedger(repositoryRoot, { ...whole, from: tip, to: current });
        // The base is back where it was: the movers did not land, and a car judged on top of one of them
        // (already contained in it, or in conflict with it) is undecided, so it is kept too.
        for (const index of new Set([...moves.map((move) => move.index), ...onTrain])) {
          outcomes[index] = {
            result: deferred(
              cars[index] as LandingCar,
              baseName,
              current,
              [],
              `updating ${updated.failure.path} was refused by git (${updated.failure.detail})`,
            ),
          };
        }
        return settle(outcomes);
      }
      for (const { index, car, ...move } of moves) {
        outcomes[index] = {
          result: {
            outcome: 'merged',
            mergeCommit: move.to,
            previousBaseCommit: move.from,
            message: `Landed ${car.branch} on ${baseName} at ${move.to.slice(0, 12)}.`,
            fastForward: move.fastForward && car.strategy !== 'squash',
            updatedCheckouts: updated.paths,
            ...(read.worktrees === undefined ? {} : { worktrees: read.worktrees }),
          },
        };
      }
    } catch (error) {
      // The base moved and a checkout is not as it should be: every car of the move is told.
      for (const move of moves) outcomes[move.index] = { error: error as Error };
    } finally {
      // Only a crash leaves the journal behind; every outcome reached here is final.
      removeLandingJournal(repositoryRoot, lead.jobId);
    }
    return settle(outcomes);
  }
  // Every attempt lost the compare-and-swap: the cars that would have moved the base (they have no outcome)
  // and those judged on top of them are told; the others' last results (a conflict with the base, a
  // refusal, their own error) stand.
  return cars.map((car, index) => {
    const last = outcomes[index];
    if (last !== undefined && !onTrain.has(index)) return last;
    return {
      error: fail(
        `${baseName} kept moving while snodo tried to land ${car.branch} (${maxAttempts} attempts); ` +
          `run \`snodo task merge ${car.jobId}\` when it is quiet.`,
      ),
    };
  });
}

/**
 * What one car does on top of `tip` (the base as the cars before it leave it): a final result when it does
 * not move the base (refused, already contained, conflict, not a fast-forward), otherwise the commit it adds
 * and the paths that commit changes.
 */
async function planCar(
  scope: LandingScope,
  car: LandingCar,
  at: {
    current: string;
    tip: string;
    taskTip: string;
    /** The car's base check of `current` (`baseRefusal`), already under way. */
    refusal: Promise<LandTaskBranchResult | undefined> | undefined;
  },
): Promise<
  { result: LandTaskBranchResult; refusedByCheck?: true } | Omit<CarMove, 'index' | 'car' | 'from'>
> {
  const { repositoryRoot, baseName } = scope;
  const { current, tip, taskTip } = at;
  const refused = await at.refusal;
  if (refused !== undefined) return { result: refused, refusedByCheck: true };
  // On a tip a car before this one made (a merge commit just written, or a branch fast-forwarded to), the
  // task branch is rarely a fast-forward or contained already: its in-memory merge starts beside the
  // merge-base instead of after it. When it turns out not to be needed, its tree is left unreachable for gc.
  const mergeOnTip = (): ReturnType<typeof mergeTrees> =>
    mergeTrees({ cwd: repositoryRoot, ours: tip, theirs: taskTip });
  const early = tip === current ? undefined : mergeOnTip();
  early?.catch(() => undefined);
  // One merge-base answers both questions: is the task already in the base, and can the base fast-forward.
  const relation = await relateCommits(repositoryRoot, taskTip, tip);
  if (relation === 'same' || relation === 'ancestor') {
    return { result: alreadyMerged(tip, `${baseName} already contains ${car.branch}.`) };
  }
  const fastForward = relation === 'descendant';
  // A fast-forward cannot conflict and its tree is the task's: the in-memory merge is only needed when both
  // sides moved, or to squash.
  const merge =
    fastForward && car.strategy !== 'squash'
      ? { tree: '', conflictedFiles: [] as readonly string[] }
      : await (early ?? mergeOnTip());
  if (merge.conflictedFiles.length > 0) {
    return {
      result: {
        outcome: 'merge_conflict',
        previousBaseCommit: current,
        conflictedFiles: merge.conflictedFiles,
        message:
          `${car.branch} conflicts with ${baseName} in ${merge.conflictedFiles.join(', ')}; nothing was changed. ` +
          `Resolve it in the task workspace (${car.updateCommand('merge')}), commit, and run \`snodo task merge ${car.jobId}\`, ` +
          `or drop it with \`snodo task abandon ${car.jobId}\`.`,
      },
    };
  }
  if (car.strategy === 'ff-only' && !fastForward) {
    return {
      result: {
        outcome: 'not_fast_forward',
        previousBaseCommit: current,
        message:
          `${baseName} moved on since the task started, so ${car.branch} cannot be fast-forwarded onto it ` +
          `(merge strategy "ff-only"). Rebase the branch onto ${baseName} (${car.updateCommand('rebase')}) and run ` +
          `\`snodo task merge ${car.jobId}\`, or use merge strategy "merge".`,
      },
    };
  }
  const changedPathsTo = async (to: string): Promise<readonly string[]> =>
    (await diffNameStatus({ cwd: repositoryRoot, from: tip, to, renames: false })).map((entry) => entry.path);
  // What a merge or squash commit changes is its tree's difference from `tip`: read beside the commit's
  // writing instead of after it (a train's cars on a moved base each make one).
  let treeChanges: Promise<readonly string[]> | undefined;
  const readTreeChanges = (tree: string): void => {
    treeChanges = changedPathsTo(tree);
    treeChanges.catch(() => undefined);
  };
  let next: string;
  if (car.strategy === 'squash') {
    if (merge.tree === (await revParse(repositoryRoot, `${tip}^{tree}`))) {
      return { result: alreadyMerged(tip, `${baseName} already has every change of ${car.branch}.`) };
    }
    readTreeChanges(merge.tree);
    next = await commitTree({
      cwd: repositoryRoot,
      tree: merge.tree,
      parents: [tip],
      message: car.commitMessage,
      identity: await scope.identity(),
    });
  } else if (fastForward) {
    next = taskTip;
  } else {
    readTreeChanges(merge.tree);
    next = await commitTree({
      cwd: repositoryRoot,
      tree: merge.tree,
      parents: [tip, taskTip],
      message: car.commitMessage,
      identity: await scope.identity(),
    });
  }
  const known = car.knownChangedPaths;
  const changedPaths =
    known?.from === tip && known.to === next ? known.paths : await (treeChanges ?? changedPathsTo(next));
  return { to: next, fastForward, changedPaths };
}

/**
 * A car's base check, started now: the base as read under the lock is what a refusal judges, since the cars
 * before this one are snodo's own. `undefined` for a car without one, or whose task branch is gone (it gets
 * no plan). A check that throws stops only its car, when its plan awaits it; until then its rejection is
 * marked handled, so a car planned late (behind a slow merge) does not crash the process meanwhile.
 */
function baseRefusal(
  car: LandingCar,
  current: string,
  taskTip: string | undefined,
): Promise<LandTaskBranchResult | undefined> | undefined {
  if (car.checkBase === undefined || taskTip === undefined) return undefined;
  const refusal = Promise.resolve().then(() => car.checkBase?.(current));
  refusal.catch(() => undefined);
  return refusal;
}

function alreadyMerged(tip: string, message: string): LandTaskBranchResult {
  return { outcome: 'merged', mergeCommit: tip, previousBaseCommit: tip, alreadyMerged: true, message };
}

function deferred(
  car: LandingCar,
  baseName: string,
  previousBaseCommit: string,
  overlapping: readonly string[],
  why: string,
): LandTaskBranchResult {
  const listed = overlapping.length > 0 ? ` (${overlapping.join(', ')})` : '';
  return {
    outcome: 'merge_deferred',
    previousBaseCommit,
    overlappingPaths: overlapping,
    message:
      `Did not land ${car.branch}: ${why}${listed}. ${baseName} and your files are untouched and the job is kept. ` +
      `Commit or finish your own work there, then run \`snodo task merge ${car.jobId}\`.`,
  };
}

/** One car's reflog line is the single landing's; a train names its branches and jobs. */
function reflogMessage(moving: readonly LandingCar[]): string {
  const [only] = moving;
  if (moving.length === 1 && only !== undefined) {
    return `snodo: land ${only.branch} (${only.strategy}, job ${only.jobId})`;
  }
  return `snodo: land ${moving.length} task branches (jobs ${moving.map((car) => car.jobId).join(', ')})`;
}

/** Every car has an outcome by the time an attempt ends. */
function settle(outcomes: readonly (CarOutcome | undefined)[]): CarOutcome[] {
  return outcomes.map(
    (outcome) =>
      outcome ?? {
        error: new IsolationFailedError({ operation: 'land', message: 'landing ended without a result' }),
      },
  );
}
