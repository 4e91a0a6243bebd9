import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  CHECKPOINT_TRAILER_KEY,
  parseCheckpointTrailer,
  readCheckpoints,
  type SignedCheckpoint,
} from '@snodo/audit';
import { git } from '../git/index.js';
import { checkpointStoreDirectory, checkpointStorePath } from './audit-paths.js';
import { fetchRemoteAuditRef } from './audit-remote.js';
import { readCheckpointsFromRef } from './checkpoint-ref.js';

/** Where an anchor was found. */
export type AnchorSource = 'store' | 'ref' | 'trailer' | 'remote';

/** One signed checkpoint found outside the log, and where. */
export interface RepositoryAnchor {
  readonly checkpoint: SignedCheckpoint;
  readonly source: AnchorSource;
  /** The file, ref or commit it came from, for messages. */
  readonly where: string;
}

/** Every anchor of one repository, with what could not be read. */
export interface RepositoryAnchors {
  readonly anchors: readonly RepositoryAnchor[];
  readonly counts: {
    readonly store: number;
    readonly ref: number;
    readonly trailers: number;
    readonly remote: number;
  };
  readonly notChecked: readonly string[];
  /** A remote chain that was rewound (tampering somewhere else), in words. */
  readonly remoteRewound?: string;
}

/** The log ids with a store file in `directory` (`<id>.jsonl`). */
export function storeLogIds(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((name) => /^[0-9a-f]{32}\.jsonl$/.test(name))
      .map((name) => name.slice(0, 32));
  } catch {
    return [];
  }
}

/**
 * Log ids whose store lives under another repository's folder on this machine: a merge commit pulled
 * from a second clone carries that clone's checkpoints, signed with the same key, and is not an anchor of
 * this repository's log.
 */
export function otherRepositoryLogIds(snodoHome: string, gitCommonDirectory: string): Set<string> {
  const root = join(snodoHome, 'checkpoints');
  const own = checkpointStoreDirectory(snodoHome, gitCommonDirectory);
  const ids = new Set<string>();
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return ids;
  }
  for (const entry of entries) {
    const directory = join(root, entry);
    if (directory === own || entry.endsWith('.jsonl')) continue;
    for (const id of storeLogIds(directory)) ids.add(id);
  }
  return ids;
}

async function trailerCheckpoints(repositoryRoot: string): Promise<RepositoryAnchor[]> {
  const log = await git(['log', '--all', `--grep=${CHECKPOINT_TRAILER_KEY}:`, '--format=%H%x00%B%x1e'], {
    cwd: repositoryRoot,
    allowFailure: true,
    readOnly: true,
  });
  const found: RepositoryAnchor[] = [];
  for (const record of log.stdout.split('\x1e')) {
    const [commit = '', message = ''] = record.replace(/^\n/, '').split('\0');
    for (const line of message.split('\n')) {
      if (!line.startsWith(`${CHECKPOINT_TRAILER_KEY}:`)) continue;
      try {
        found.push({
          checkpoint: parseCheckpointTrailer(line),
          source: 'trailer',
          where: `commit ${commit.slice(0, 12)}`,
        });
      } catch {
        // A malformed trailer is not an anchor; the others still are.
      }
    }
  }
  return found;
}

/**
 * Collects every anchor snodo keeps for a repository: this repository's checkpoint stores (all log ids),
 * the legacy store of the current log, `refs/snodo/audit`, the checkpoint trailers of commits on all
 * refs, and, with `remote`, the remote's `refs/snodo/audit` (fetched first). Signatures are not checked
 * here.
 */
export async function readRepositoryAnchors(options: {
  repositoryRoot: string;
  gitCommonDirectory: string;
  snodoHome: string;
  logId?: string | undefined;
  remote?: string | undefined;
}): Promise<RepositoryAnchors> {
  const anchors: RepositoryAnchor[] = [];
  const notChecked: string[] = [];
  const directory = checkpointStoreDirectory(options.snodoHome, options.gitCommonDirectory);
  const storeFiles = storeLogIds(directory).map((id) => join(directory, `${id}.jsonl`));
  if (options.logId !== undefined) storeFiles.push(checkpointStorePath(options.snodoHome, options.logId));
  let store = 0;
  for (const file of storeFiles) {
    try {
      for (const checkpoint of readCheckpoints(file)) {
        anchors.push({ checkpoint, source: 'store', where: file });
        store += 1;
      }
    } catch (error) {
      notChecked.push(`checkpoint store ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const fromRef = await readCheckpointsFromRef(options.repositoryRoot);
  for (const checkpoint of fromRef) anchors.push({ checkpoint, source: 'ref', where: 'refs/snodo/audit' });
  const trailers = await trailerCheckpoints(options.repositoryRoot);
  anchors.push(...trailers);
  let remote = 0;
  let remoteRewound: string | undefined;
  if (options.remote === undefined) {
    notChecked.push('remote copies of refs/snodo/audit (set audit.remote to push and check one)');
  } else {
    const fetched = await fetchRemoteAuditRef(options.repositoryRoot, options.remote);
    if (fetched.notChecked !== undefined) notChecked.push(fetched.notChecked);
    remoteRewound = fetched.rewound;
    if (fetched.ref !== undefined) {
      for (const checkpoint of await readCheckpointsFromRef(options.repositoryRoot, fetched.ref)) {
        anchors.push({ checkpoint, source: 'remote', where: `${options.remote}'s refs/snodo/audit` });
        remote += 1;
      }
    }
  }
  return {
    anchors,
    counts: { store, ref: fromRef.length, trailers: trailers.length, remote },
    notChecked,
    ...(remoteRewound === undefined ? {} : { remoteRewound }),
  };
}
