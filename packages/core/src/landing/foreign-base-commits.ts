import { git } from '../git/git.js';
import { readLandingLedger } from './landing-journal.js';

/** A commit the base gained during a job that no snodo landing made. */
export interface ForeignBaseCommit {
  readonly commit: string;
  readonly subject: string;
}

/** At most this many foreign commits are named; the count says how many there were. */
const namedAtMost = 10;

async function commitsBetween(cwd: string, from: string, to: string): Promise<string[]> {
  const listed = await git(['rev-list', '--end-of-options', `${from}..${to}`], { cwd, readOnly: true });
  return listed.stdout.split('\n').filter(Boolean);
}

/**
 * The commits that reached the base between `since` (the base the job started from, or the one a human
 * approved) and `current` (read under the merge lock) without a snodo landing bringing them: everything in
 * `since..current` minus what each base move recorded in the landing ledger after the job started brought
 * in. Those are the user's own commits, another tool's, or a coder's that moved the base behind snodo's back:
 * a job does not land on top of them silently (SPEC §12).
 */
export async function findForeignBaseCommits(options: {
  repositoryRoot: string;
  baseRef: string;
  since: string;
  current: string;
  ledgerOffset: number;
}): Promise<{ count: number; commits: ForeignBaseCommit[] }> {
  if (options.since === options.current) return { count: 0, commits: [] };
  const cwd = options.repositoryRoot;
  const gained = new Set(await commitsBetween(cwd, options.since, options.current));
  for (const move of readLandingLedger(cwd, options.baseRef, options.ledgerOffset)) {
    if (gained.size === 0) break;
    for (const commit of await commitsBetween(cwd, move.from, move.to)) gained.delete(commit);
  }
  if (gained.size === 0) return { count: 0, commits: [] };
  const named = [...gained].slice(0, namedAtMost);
  const shown = await git(['show', '-s', '--format=%H %s', '--end-of-options', ...named], {
    cwd,
    readOnly: true,
  });
  const commits = shown.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => ({
      commit: line.slice(0, line.indexOf(' ')),
      subject: line.slice(line.indexOf(' ') + 1),
    }));
  return { count: gained.size, commits };
}
