import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processStartTimeMs } from '@snodo/foundation';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';

/** One job's part of a base move: the base went from `from` to `to` for it. */
export const landingMoveSchema = z.object({ jobId: z.string(), from: z.string(), to: z.string() });
export type LandingMove = z.infer<typeof landingMoveSchema>;

/**
 * A landing in progress, written under the merge lock right before the base ref moves and removed once every
 * checkout of the base shows the landed commit. If snodo dies in between (SIGKILL, power cut), the next start
 * finds it and finishes the user's checkout instead of leaving it showing the merge reversed.
 */
export const landingJournalSchema = z.object({
  version: z.literal(1),
  jobId: z.string(),
  /** `refs/heads/<base>`. */
  baseRef: z.string(),
  /** The base tip snodo read under the merge lock and compared-and-swapped from. */
  from: z.string(),
  /** The commit the base moves to. */
  to: z.string(),
  /** Working trees that have the base checked out and are brought from `from` to `to`. */
  checkouts: z.array(z.string()),
  /**
   * A train's landings in order (`jobId` above is the first), each its own part of `from..to`; absent for a
   * single landing. Recovery records each job as landed with its own commit.
   */
  cars: z.array(landingMoveSchema).optional(),
  /** The process landing, so recovery never touches a live landing. */
  pid: z.number().int(),
  hostname: z.string(),
  startTimeMs: z.number().int().optional(),
  startedAt: z.string(),
});
export type LandingJournal = z.infer<typeof landingJournalSchema>;

/** One move of a base ref made by snodo, appended to the ledger inside the merge lock. */
export const landingLedgerEntrySchema = z.object({
  jobId: z.string(),
  baseRef: z.string(),
  from: z.string(),
  to: z.string(),
  at: z.string(),
});
export type LandingLedgerEntry = z.infer<typeof landingLedgerEntrySchema>;

/**
 * `<main checkout>/.git/snodo/landings/`: the journals of landings in flight and the ledger of those done.
 * Inside the git directory (like the merge lock beside it), so it never shows in `git status` and a
 * sandboxed coder, which cannot see the main checkout, cannot reach it.
 */
export function landingsDirectory(repositoryRoot: string): string {
  return join(repositoryRoot, '.git', 'snodo', 'landings');
}

function journalPath(repositoryRoot: string, jobId: string): string {
  return join(landingsDirectory(repositoryRoot), `journal-${jobId}.json`);
}

/** The ledger: one line per base move snodo made, so a landing can tell snodo's commits from others'. */
export function landingLedgerPath(repositoryRoot: string): string {
  return join(landingsDirectory(repositoryRoot), 'ledger.jsonl');
}

/** Writes the journal of a landing about to move the base; durable, so it survives what it guards against. */
export function writeLandingJournal(
  repositoryRoot: string,
  landing: Pick<LandingJournal, 'jobId' | 'baseRef' | 'from' | 'to' | 'checkouts' | 'cars'>,
): void {
  mkdirSync(landingsDirectory(repositoryRoot), { recursive: true });
  const journal: LandingJournal = {
    version: 1,
    ...landing,
    pid: process.pid,
    hostname: hostname(),
    ...(processStartTimeMs(process.pid) === undefined
      ? {}
      : { startTimeMs: processStartTimeMs(process.pid) as number }),
    startedAt: new Date().toISOString(),
  };
  writeFileAtomic(journalPath(repositoryRoot, landing.jobId), `${JSON.stringify(journal)}\n`, 0o644, {
    durable: true,
  });
}

/** Removes a landing's journal once it is finished (or never moved the base). */
export function removeLandingJournal(repositoryRoot: string, jobId: string): void {
  rmSync(journalPath(repositoryRoot, jobId), { force: true });
}

/** Every journal left in the repository, oldest first; unreadable ones are returned as problems. */
export function readLandingJournals(repositoryRoot: string): {
  journals: LandingJournal[];
  unreadable: string[];
} {
  const directory = landingsDirectory(repositoryRoot);
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => /^journal-.+\.json$/.test(name));
  } catch {
    return { journals: [], unreadable: [] };
  }
  const journals: LandingJournal[] = [];
  const unreadable: string[] = [];
  for (const name of names.sort()) {
    const path = join(directory, name);
    try {
      journals.push(landingJournalSchema.parse(JSON.parse(readFileSync(path, 'utf8'))));
    } catch {
      unreadable.push(path);
    }
  }
  journals.sort((left, right) => left.startedAt.localeCompare(right.startedAt));
  return { journals, unreadable };
}

/** Appends one base move to the ledger (fsynced: a landing is only as good as its record). */
export function appendLandingLedger(repositoryRoot: string, entry: Omit<LandingLedgerEntry, 'at'>): void {
  mkdirSync(landingsDirectory(repositoryRoot), { recursive: true });
  const line = `${JSON.stringify({ ...entry, at: new Date().toISOString() })}\n`;
  const descriptor = openSync(landingLedgerPath(repositoryRoot), 'a', 0o644);
  try {
    writeSync(descriptor, line);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** The ledger's size in bytes now: a job records it when it starts and reads only what came after. */
export function landingLedgerOffset(repositoryRoot: string): number {
  try {
    return statSync(landingLedgerPath(repositoryRoot)).size;
  } catch {
    return 0;
  }
}

/** The base moves recorded at or after `offset` (a job's start), for one base ref. Bad lines are skipped. */
export function readLandingLedger(repositoryRoot: string, baseRef: string, offset = 0): LandingLedgerEntry[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(landingLedgerPath(repositoryRoot));
  } catch {
    return [];
  }
  const entries: LandingLedgerEntry[] = [];
  for (const line of bytes.subarray(Math.min(offset, bytes.length)).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = landingLedgerEntrySchema.parse(JSON.parse(line));
      if (entry.baseRef === baseRef) entries.push(entry);
    } catch {
      // A torn last line (a crash mid-append) names no move; the journal covers that landing.
    }
  }
  return entries;
}
