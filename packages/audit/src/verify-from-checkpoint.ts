import { closeSync, openSync } from 'node:fs';
import type { AuditVerifyResult } from './audit-verify-result.js';
import { ChainVerifier } from './chain-verifier.js';
import type { SignedCheckpoint } from './checkpoint.js';
import { AuditFileError } from './errors.js';
import { type LocatedEvent, locateEvent } from './locate-event.js';
import { readLogGenesis } from './read-log-genesis.js';
import {
  checkSignatures,
  type VerifyAuditLogOptions,
  verifyAuditLog,
  verifyChainFrom,
} from './verify-audit-log.js';

/** Where a verification from a checkpoint started. */
export interface VerifiedFrom {
  /** `seq` of the checkpointed event the chain was resumed from. */
  readonly seq: number;
  /** Byte offset of the first line read after it. */
  readonly byteOffset: number;
}

/** `verifyAuditLog`'s result, telling whether only the tail after a checkpoint was read. */
export type TailVerifyResult = AuditVerifyResult & {
  /** Present when the prefix up to this checkpointed event was taken on the checkpoint's signature. */
  readonly verifiedFrom?: VerifiedFrom;
};

/**
 * Verifies the log from its newest checkpoint on: every checkpoint's signature is checked, the event each
 * one anchors is found by bisection and must carry the signed hash, the genesis must name the
 * checkpoints' log, and only the lines after the newest one are read and chained. The events before it
 * are vouched for by the signature over the hash that chains them, so start-up costs the same with a
 * million events as with a thousand; a rewrite of bytes inside the signed prefix (which no valid chain can
 * hide) is left to `verifyAuditLog`, the full read `snodo audit verify` makes.
 *
 * Falls back to the full verification whenever the shortcut cannot be taken — no checkpoint, one whose
 * event is missing or differs, another log's genesis — so every failure is reported exactly as
 * `verifyAuditLog` reports it (`E_TRUNCATED`, `E_CKPT_MISMATCH`, `E_LOG_ID`…).
 */
export async function verifyAuditLogFromCheckpoint(
  path: string,
  options: VerifyAuditLogOptions = {},
): Promise<TailVerifyResult> {
  const checkpoints = options.checkpoints ?? [];
  const newest = checkpoints.reduce<SignedCheckpoint | undefined>(
    (best, checkpoint) => (best === undefined || checkpoint.size > best.size ? checkpoint : best),
    undefined,
  );
  if (newest === undefined) return verifyAuditLog(path, options);
  // Signatures first, by the full verifier's own check: an unsigned anchor vouches for nothing.
  const badSignature = checkSignatures(checkpoints, options.publicKey);
  if (badSignature !== undefined) return badSignature;
  const anchor = anchoredEvent(path, checkpoints, newest);
  if (anchor === undefined) return verifyAuditLog(path, options);
  return verifyTail(path, anchor, checkpoints.length);
}

/** The newest checkpoint's event, when the genesis and every checkpoint agree with the file. */
function anchoredEvent(
  path: string,
  checkpoints: readonly SignedCheckpoint[],
  newest: SignedCheckpoint,
): { located: LocatedEvent; logId: string } | undefined {
  const genesis = readLogGenesis(path);
  if (genesis === undefined || checkpoints.some((checkpoint) => checkpoint.log_id !== genesis.logId)) {
    return undefined;
  }
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (cause) {
    throw new AuditFileError({ path, cause });
  }
  try {
    let located: LocatedEvent | undefined;
    for (const checkpoint of checkpoints) {
      const found = locateEvent(descriptor, checkpoint.size - 1);
      if (found === undefined || found.event.hash !== checkpoint.head_hash) return undefined;
      if (checkpoint === newest) located = found;
    }
    return located === undefined ? undefined : { located, logId: genesis.logId };
  } finally {
    closeSync(descriptor);
  }
}

async function verifyTail(
  path: string,
  anchor: { located: LocatedEvent; logId: string },
  checkpointCount: number,
): Promise<TailVerifyResult> {
  const { located, logId } = anchor;
  const verifier = new ChainVerifier([], { seq: located.event.seq, hash: located.event.hash, logId });
  const tail = await verifyChainFrom(path, verifier, located.end);
  return {
    ...tail,
    // The prefix's events are the checkpoint's; the tail's were counted as they were read.
    events: located.event.seq + 1 + tail.events,
    checkpointsVerified: tail.ok ? checkpointCount : 0,
    verifiedFrom: { seq: located.event.seq, byteOffset: located.end },
  };
}
