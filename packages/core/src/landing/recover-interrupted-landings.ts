import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { isSameProcessAlive } from '@snodo/foundation';
import { findGitCommonDirectory } from '../git/repository-paths.js';
import { resolveCommit } from '../git/rev-parse.js';
import { advanceCheckout } from '../isolation/base-checkout.js';
import { withRepositoryMergeLock } from '../isolation/repository-merge-lock.js';
import {
  appendLandingLedger,
  type LandingJournal,
  type LandingMove,
  readLandingJournals,
  readLandingLedger,
  removeLandingJournal,
} from './landing-journal.js';

/** What the next start did about one landing whose process died. */
export interface RecoveredLanding {
  readonly jobId: string;
  readonly baseRef: string;
  readonly from: string;
  readonly to: string;
  /**
   * `not-moved`: the process died before the base moved; nothing landed. `finished`: the base had moved and
   * the checkouts listed were brought up to the landed commit. `checkout-refused`: the base had moved but
   * git refused to update a checkout without touching the user's own edits there; the journal is kept and
   * the message says what to do. `base-moved-on`: the base has moved again since, so the checkout is the
   * user's to look at.
   */
  readonly action: 'not-moved' | 'finished' | 'checkout-refused' | 'base-moved-on';
  /** The checkouts brought up to date (`finished`). */
  readonly updatedCheckouts: readonly string[];
  /** One sentence for the user. */
  readonly message: string;
  /** Each job the landing was for, with its own part of `from..to` (one, or a train's several, in order). */
  readonly cars: readonly LandingMove[];
}

/** A journal this host may finish: its process, on this host, is gone. Other hosts' are theirs to finish. */
function isAbandoned(journal: LandingJournal): boolean {
  return journal.hostname === hostname() && !isSameProcessAlive(journal.pid, journal.startTimeMs);
}

async function recoverOne(repositoryRoot: string, journal: LandingJournal): Promise<RecoveredLanding> {
  const base = journal.baseRef.replace(/^refs\/heads\//, '');
  const move: LandingMove = { jobId: journal.jobId, from: journal.from, to: journal.to };
  const landed = { ...move, baseRef: journal.baseRef, cars: journal.cars ?? [move] };
  const jobs = landed.cars.map((car) => car.jobId).join(', ');
  const tip = await resolveCommit(repositoryRoot, journal.baseRef);
  if (tip !== journal.to) {
    removeLandingJournal(repositoryRoot, journal.jobId);
    if (tip === journal.from) {
      return {
        ...landed,
        action: 'not-moved',
        updatedCheckouts: [],
        message: `The landing of ${jobs} was interrupted before ${base} moved; nothing landed.`,
      };
    }
    return {
      ...landed,
      action: 'base-moved-on',
      updatedCheckouts: [],
      message:
        `The landing of ${jobs} was interrupted and ${base} has moved on since (now ${tip?.slice(0, 12) ?? 'gone'}); ` +
        `check \`git status\` in ${journal.checkouts.join(', ') || 'your checkout'} before committing there.`,
    };
  }
  if (!readLandingLedger(repositoryRoot, journal.baseRef).some((move) => move.to === journal.to)) {
    appendLandingLedger(repositoryRoot, { ...move, baseRef: journal.baseRef });
  }
  const updated: string[] = [];
  for (const checkout of journal.checkouts) {
    if (!existsSync(checkout)) continue;
    const head = await resolveCommit(checkout, 'HEAD');
    if (head !== journal.to) continue;
    try {
      // Two-way `read-tree -m -u from to`: a no-op for paths already at `to`, and a refusal (changing
      // nothing) where it would overwrite the user's own edits.
      await advanceCheckout(checkout, journal.from, journal.to);
      updated.push(checkout);
    } catch (error) {
      return {
        ...landed,
        action: 'checkout-refused',
        updatedCheckouts: updated,
        message:
          `${jobs} landed on ${base} (${journal.to.slice(0, 12)}) but snodo stopped before updating ${checkout}, ` +
          `and your edits there now stand in the way (${(error as Error).message.split('\n')[0]}). Until it is updated, ` +
          '`git status` there shows the merge reversed: commit or stash your edits, then run any snodo command to finish, ' +
          `or run \`git read-tree -m -u ${journal.from} ${journal.to}\` there yourself.`,
      };
    }
  }
  removeLandingJournal(repositoryRoot, journal.jobId);
  return {
    ...landed,
    action: 'finished',
    updatedCheckouts: updated,
    message:
      `Finished the landing of ${jobs} on ${base} (${journal.to.slice(0, 12)}), interrupted after ${base} moved` +
      (updated.length > 0 ? `: updated ${updated.join(', ')}.` : '.'),
  };
}

/**
 * Finds landings whose snodo process died between writing the journal and finishing (SPEC §12) and
 * finishes or repairs them, under the merge lock so no live landing is touched: a base that never moved is
 * left alone; one that moved gets its ledger entry and every checkout of it is brought to the landed commit
 * by a safe two-way update that never overwrites the user's own edits. Journals of live processes and of
 * other hosts are skipped. Called by every start that reconciles jobs.
 */
export async function recoverInterruptedLandings(repositoryRoot: string): Promise<RecoveredLanding[]> {
  const pending = readLandingJournals(repositoryRoot).journals.filter(isAbandoned);
  if (pending.length === 0) return [];
  const gitCommonDirectory = await findGitCommonDirectory(repositoryRoot);
  return withRepositoryMergeLock(
    { gitCommonDirectory, jobId: 'recovery', purpose: 'finishing an interrupted landing' },
    async () => {
      const recovered: RecoveredLanding[] = [];
      for (const journal of readLandingJournals(repositoryRoot).journals) {
        if (!isAbandoned(journal)) continue;
        recovered.push(await recoverOne(repositoryRoot, journal));
      }
      return recovered;
    },
  );
}
