import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AuditLogSnapshot, loadPublicKey, PUBLIC_KEY_FILE, snapshotAuditLog } from '@snodo/audit';
import { git } from '../git/index.js';
import {
  auditLogPath,
  checkpointStoreDirectory,
  checkpointStorePath,
  REMOTE_AUDIT_REF_PREFIX,
  signingKeyDirectory,
} from './audit-paths.js';
import { storeLogIds } from './repository-anchors.js';

/** Where a repository's audit anchors live: what `snapshotAuditAnchors` is given. */
export interface AuditAnchorLocation {
  readonly repositoryRoot: string;
  readonly gitCommonDirectory: string;
  readonly snodoHome: string;
  /** The current log's id (`AuditTrail.logId`): its legacy store file is watched too. */
  readonly logId?: string | undefined;
}

/** The audit side of a repository at one instant, to compare after a coder attempt or a command gate. */
export interface AuditAnchorSnapshot extends AuditAnchorLocation {
  readonly log: AuditLogSnapshot;
  /** This repository's checkpoint store folder. */
  readonly storeDirectory: string;
  /** Every store file watched (this repository's, and the legacy file of the current log): path → bytes. */
  readonly storeFiles: ReadonlyMap<string, Buffer>;
  /** `refs/snodo/*` except `refs/snodo/remotes/**`: name → object id. */
  readonly refs: ReadonlyMap<string, string>;
  /** This machine's public key, to check new checkpoints with; absent before the first checkpoint. */
  readonly publicKey?: KeyObject;
}

/** `refs/snodo/*` (minus the remote copies) as name → object id: one `git for-each-ref`. */
export async function snodoRefs(repositoryRoot: string): Promise<Map<string, string>> {
  const listed = await git(['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/snodo/'], {
    cwd: repositoryRoot,
    readOnly: true,
  });
  const refs = new Map<string, string>();
  for (const line of listed.stdout.split('\n')) {
    const [name, objectId] = line.split('\0');
    if (name === undefined || objectId === undefined || name.startsWith(REMOTE_AUDIT_REF_PREFIX)) continue;
    refs.set(name, objectId);
  }
  return refs;
}

/** The store files watched for a repository: its folder's files, and the legacy file of the current log. */
export function watchedStoreFiles(location: AuditAnchorLocation): string[] {
  const directory = checkpointStoreDirectory(location.snodoHome, location.gitCommonDirectory);
  const files = storeLogIds(directory).map((id) => join(directory, `${id}.jsonl`));
  if (location.logId !== undefined) files.push(checkpointStorePath(location.snodoHome, location.logId));
  return files;
}

/**
 * Snapshots the audit anchors of a repository (issue 11, detection as a second line): the log (identity,
 * size, digest, head), the bytes of its checkpoint store files (one line per job: small) and
 * `refs/snodo/*`. The pipeline takes one before every coder attempt and command-gate phase and hands it
 * to `checkAuditAnchors` afterwards.
 */
export async function snapshotAuditAnchors(location: AuditAnchorLocation): Promise<AuditAnchorSnapshot> {
  // The log first: a checkpoint signed meanwhile then covers at least the snapshot's head.
  const log = await snapshotAuditLog(auditLogPath(location.repositoryRoot));
  const storeFiles = new Map<string, Buffer>();
  for (const file of watchedStoreFiles(location)) {
    try {
      storeFiles.set(file, readFileSync(file));
    } catch {
      // Not there (the legacy file usually is not): a file that appears later is checked line by line.
    }
  }
  const publicKeyPath = join(signingKeyDirectory(location.snodoHome), PUBLIC_KEY_FILE);
  return {
    ...location,
    log,
    storeDirectory: checkpointStoreDirectory(location.snodoHome, location.gitCommonDirectory),
    storeFiles,
    refs: await snodoRefs(location.repositoryRoot),
    ...(existsSync(publicKeyPath) ? { publicKey: loadPublicKey(publicKeyPath) } : {}),
  };
}
