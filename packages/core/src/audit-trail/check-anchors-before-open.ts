import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  AuditChainError,
  checkCheckpointSignature,
  readCheckpoints,
  readLogGenesis,
  type SignedCheckpoint,
  type SigningKey,
} from '@snodo/audit';
import { AuditLogMissingError, AuditLogReplacedError } from '../errors.js';
import { readAuditLineage } from './audit-lineage.js';
import { checkpointStoreDirectory, checkpointStorePath } from './audit-paths.js';
import { newestRefCheckpoint } from './checkpoint-ref.js';
import { storeLogIds } from './repository-anchors.js';

/**
 * The cheap anchor checks `AuditTrail.open` makes before every `snodo run` and task action: one listing
 * of this repository's checkpoint store folder, one read of the current log's store file and one
 * `git show` of `refs/snodo/audit` (no walk of history). Refuses to start a fresh log over anchors
 * (`AuditLogMissingError`) and to append to a log other than the one they name (`AuditLogReplacedError`).
 * Returns the newest checkpoints of the current log, which the caller holds the log to when opening it.
 */
export async function checkAnchorsBeforeOpen(options: {
  logPath: string;
  repositoryRoot: string;
  gitCommonDirectory: string;
  snodoHome: string;
  key: SigningKey;
}): Promise<SignedCheckpoint[]> {
  const directory = checkpointStoreDirectory(options.snodoHome, options.gitCommonDirectory);
  const storeIds = storeLogIds(directory);
  const fromRef = await newestRefCheckpoint(options.repositoryRoot);
  const refCheckpoint = fromRef?.key_id === options.key.keyId ? fromRef : undefined;
  if (refCheckpoint !== undefined)
    requireSignature(options.logPath, refCheckpoint, options.key, 'refs/snodo/audit');
  if (!existsSync(options.logPath)) {
    const anchors = [
      ...(storeIds.length === 0 ? [] : [`checkpoints of log ${storeIds.join(', ')} in ${directory}`]),
      ...(refCheckpoint === undefined
        ? []
        : [`refs/snodo/audit names log ${refCheckpoint.log_id} at ${refCheckpoint.size} events`]),
    ];
    if (anchors.length > 0) throw new AuditLogMissingError({ path: options.logPath, anchors });
    return [];
  }
  const genesis = readLogGenesis(options.logPath);
  // A log whose first line is not a valid genesis is refused by the full verification at open.
  if (genesis === undefined) return [];
  const lineage = readAuditLineage(options.repositoryRoot, genesis, [options.key.publicKey]);
  const foreign = (id: string) => id !== genesis.logId && !lineage.records.has(id);
  const foreignStore = storeIds.filter(foreign);
  if (foreignStore.length > 0) {
    throw new AuditLogReplacedError({
      path: options.logPath,
      logId: genesis.logId,
      anchoredLogIds: foreignStore,
      where: `checkpoint stores in ${directory}`,
    });
  }
  if (refCheckpoint !== undefined && foreign(refCheckpoint.log_id)) {
    throw new AuditLogReplacedError({
      path: options.logPath,
      logId: genesis.logId,
      anchoredLogIds: [refCheckpoint.log_id],
      where: 'refs/snodo/audit',
    });
  }
  const stored = [
    ...readStore(join(directory, `${genesis.logId}.jsonl`)),
    ...readStore(checkpointStorePath(options.snodoHome, genesis.logId)),
  ].filter((checkpoint) => checkpoint.key_id === options.key.keyId);
  const newest = stored.reduce<SignedCheckpoint | undefined>(
    (best, checkpoint) => (best === undefined || checkpoint.size > best.size ? checkpoint : best),
    undefined,
  );
  return [
    ...(newest === undefined ? [] : [newest]),
    ...(refCheckpoint?.log_id === genesis.logId ? [refCheckpoint] : []),
  ];
}

function readStore(path: string): SignedCheckpoint[] {
  try {
    return readCheckpoints(path);
  } catch {
    // A damaged store file does not stop a run; the tamper guard and `snodo audit verify` report it.
    return [];
  }
}

/** A checkpoint that names this machine's key must carry its signature: a forged one is tampering. */
function requireSignature(
  logPath: string,
  checkpoint: SignedCheckpoint,
  key: SigningKey,
  where: string,
): void {
  const problem = checkCheckpointSignature(checkpoint, [key.publicKey]);
  if (problem === undefined) return;
  throw new AuditChainError({
    path: logPath,
    failure: { code: 'E_CKPT_SIG', reason: `the newest checkpoint in ${where}: ${problem}` },
  });
}
