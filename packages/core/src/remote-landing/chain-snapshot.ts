import { readFile } from 'node:fs/promises';
import { canonicalJson, formatCheckpointTrailer, type SignedCheckpoint } from '@snodo/audit';
import { auditLogPath } from '../audit-trail/audit-paths.js';
import type { AuditTrail } from '../audit-trail/audit-trail.js';
import { fallbackIdentity, git, identityEnvironment } from '../git/index.js';

/** The files of a chain snapshot commit's tree. */
export const SNAPSHOT_LOG_FILE = 'audit.log';
export const SNAPSHOT_CHECKPOINT_FILE = 'checkpoint.json';

/** A snapshot of the lander's chain, ready to push to `refs/snodo/audit/<worker>`. */
export interface ChainSnapshot {
  /** The snapshot commit (its parent is the worker's previous snapshot on the remote). */
  readonly commit: string;
  /** The signed checkpoint it carries: the log's id, size and head hash, signed by the worker's key. */
  readonly checkpoint: SignedCheckpoint;
}

/**
 * The log's text up to and including event `size - 1`: the exact bytes the checkpoint covers. Events other
 * jobs of this clone append meanwhile come after it and wait for the next snapshot; a torn line before it
 * (a crash, followed by its `log-recover` event) is kept, as the verifier expects it.
 */
function coveredPrefix(text: string, size: number): string {
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    kept.push(line);
    let seq: unknown;
    try {
      seq = (JSON.parse(line) as { seq?: unknown }).seq;
    } catch {
      continue;
    }
    if (seq === size - 1) return `${kept.join('\n')}\n`;
  }
  throw new Error(`The audit log ends before event ${size - 1}, which its own checkpoint covers.`);
}

/**
 * Signs a checkpoint of the lander's chain (kept in its `$SNODO_HOME` store too) and writes a commit whose
 * tree holds the covered log (`audit.log`) and the checkpoint (`checkpoint.json`), with the checkpoint
 * also in its message trailer, as `refs/snodo/audit` commits carry it. Nothing moves: the caller pushes it.
 * The whole log travels, not only the new events, so a verifier with nothing but the remote can recompute
 * every hash a landing trailer names.
 */
export async function snapshotChain(options: {
  readonly clone: string;
  readonly trail: AuditTrail;
  readonly workerId: string;
  readonly parent: string | undefined;
}): Promise<ChainSnapshot> {
  const { checkpoint } = await options.trail.checkpoint({ ref: false });
  const text = coveredPrefix(await readFile(auditLogPath(options.clone), 'utf8'), checkpoint.size);
  const write = async (input: string): Promise<string> =>
    (await git(['hash-object', '-w', '--stdin'], { cwd: options.clone, input })).stdout.trim();
  const logBlob = await write(text);
  const checkpointBlob = await write(`${canonicalJson(checkpoint)}\n`);
  const tree = (
    await git(['mktree'], {
      cwd: options.clone,
      input:
        `100644 blob ${logBlob}\t${SNAPSHOT_LOG_FILE}\n` +
        `100644 blob ${checkpointBlob}\t${SNAPSHOT_CHECKPOINT_FILE}\n`,
    })
  ).stdout.trim();
  const commit = (
    await git(
      ['commit-tree', ...(options.parent === undefined ? [] : ['-p', options.parent]), '-F', '-', tree],
      {
        cwd: options.clone,
        env: identityEnvironment(fallbackIdentity),
        input:
          `snodo audit snapshot of worker ${options.workerId} at ${checkpoint.size} events\n\n` +
          `${formatCheckpointTrailer(checkpoint)}\n`,
      },
    )
  ).stdout.trim();
  return { commit, checkpoint };
}
