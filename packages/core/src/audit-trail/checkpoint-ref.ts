import {
  CHECKPOINT_TRAILER_KEY,
  canonicalJson,
  formatCheckpointTrailer,
  parseCheckpoint,
  parseCheckpointTrailer,
  type SignedCheckpoint,
} from '@snodo/audit';
import { commitFileToReference } from '../git/commit-file-to-reference.js';
import { readObjectThroughReader } from '../git/commit-reader.js';
import { fallbackIdentity, git, resolveCommit } from '../git/index.js';
import { AUDIT_CHECKPOINT_REF } from './audit-paths.js';

/**
 * Appends a checkpoint to `refs/snodo/audit`: a commit whose tree holds `checkpoint.json` and whose parent
 * is the previous checkpoint commit. The ref moves by compare-and-swap, retried when another snodo process
 * moved it first, so no checkpoint is lost. Refs are shared by every worktree, so a coder could move this
 * one too; the signatures, the merge-commit trailers and a pushed copy are what make it trustworthy.
 */
export async function appendCheckpointToRef(
  repositoryRoot: string,
  checkpoint: SignedCheckpoint,
): Promise<string> {
  for (let tries = 0; ; tries += 1) {
    const parent = await resolveCommit(repositoryRoot, AUDIT_CHECKPOINT_REF);
    // One process writes the blob, the tree and the commit and moves the ref (it was four).
    const commit = await commitFileToReference({
      cwd: repositoryRoot,
      reference: AUDIT_CHECKPOINT_REF,
      expected: parent,
      file: { name: 'checkpoint.json', content: `${canonicalJson(checkpoint)}\n` },
      message: `snodo audit checkpoint ${checkpoint.size}\n\n${formatCheckpointTrailer(checkpoint)}\n`,
      identity: fallbackIdentity,
    });
    if (commit !== undefined) return commit;
    if (tries >= 5) throw new Error(`Could not update ${AUDIT_CHECKPOINT_REF}: the ref kept moving`);
  }
}

/** One commit of a checkpoint ref and the checkpoint its message carries (or why it carries none). */
export interface RefCheckpointCommit {
  readonly commit: string;
  readonly checkpoint?: SignedCheckpoint;
  readonly problem?: string;
}

/**
 * The commits `revisions` names (`refs/snodo/audit`, `<old>..<new>`), oldest first, each with the
 * checkpoint in its message trailer: one `git log`, however long the chain. Empty when nothing resolves.
 */
export async function readRefCheckpointCommits(
  repositoryRoot: string,
  revisions: readonly string[],
): Promise<RefCheckpointCommit[]> {
  const log = await git(
    ['log', '--reverse', '--format=%H%x00%B%x1e', '--end-of-options', ...revisions, '--'],
    {
      cwd: repositoryRoot,
      allowFailure: true,
      readOnly: true,
    },
  );
  if (log.exitCode !== 0) return [];
  const commits: RefCheckpointCommit[] = [];
  for (const record of log.stdout.split('\x1e')) {
    const [commit, message = ''] = record.replace(/^\n/, '').split('\0');
    if (commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) continue;
    const line = message.split('\n').find((text) => text.startsWith(`${CHECKPOINT_TRAILER_KEY}:`));
    if (line === undefined) {
      commits.push({ commit, problem: 'its message carries no checkpoint' });
      continue;
    }
    try {
      commits.push({ commit, checkpoint: parseCheckpointTrailer(line) });
    } catch (error) {
      commits.push({ commit, problem: error instanceof Error ? error.message : String(error) });
    }
  }
  return commits;
}

/** Every checkpoint recorded in `ref` (default `refs/snodo/audit`), oldest first; empty when it does not exist. */
export async function readCheckpointsFromRef(
  repositoryRoot: string,
  ref: string = AUDIT_CHECKPOINT_REF,
): Promise<SignedCheckpoint[]> {
  const commits = await readRefCheckpointCommits(repositoryRoot, [ref]);
  return commits.flatMap((entry) => (entry.checkpoint === undefined ? [] : [entry.checkpoint]));
}

/**
 * The newest checkpoint of `refs/snodo/audit`: its `checkpoint.json` read through the repository's reader
 * (one `git show` without one), cheap enough for every `snodo run`. `undefined` when the ref does not exist or its tip holds no readable checkpoint.
 */
export async function newestRefCheckpoint(repositoryRoot: string): Promise<SignedCheckpoint | undefined> {
  const where = `${AUDIT_CHECKPOINT_REF}:checkpoint.json`;
  // The repository's reader answers without a process of its own (and stays for the run's ref lookups).
  const read = await readObjectThroughReader(repositoryRoot, where);
  let text: string;
  if (read === 'missing' || (read !== undefined && read.type !== 'blob')) return undefined;
  if (read !== undefined) text = read.content.toString('utf8');
  else {
    const shown = await git(['show', where], { cwd: repositoryRoot, allowFailure: true, readOnly: true });
    if (shown.exitCode !== 0) return undefined;
    text = shown.stdout;
  }
  try {
    return parseCheckpoint(text.trim(), where);
  } catch {
    return undefined;
  }
}
