import type { KeyObject } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import type { AuditVerifyResult } from './audit-verify-result.js';
import { ChainVerifier } from './chain-verifier.js';
import { checkCheckpointSignature, type SignedCheckpoint } from './checkpoint.js';
import { AuditFileError } from './errors.js';
import { LineScanner } from './line-scanner.js';
import { loadPublicKey } from './signing-key.js';

/** Options of `verifyAuditLog`. */
export interface VerifyAuditLogOptions {
  /**
   * Signed checkpoints to hold the log to (from commit trailers, `refs/snodo/audit`, the checkpoint
   * store). Each must verify with `publicKey`, fit inside the log, and match the hash of the event it
   * anchors: that is what catches a cut-off tail and a rewrite of the anchored events.
   */
  readonly checkpoints?: readonly SignedCheckpoint[];
  /**
   * The public key(s) checkpoints are signed with: `KeyObject`s, PEM text or PEM file paths. Several keys
   * let a log span a key rotation; each checkpoint is checked with the key its `key_id` names.
   */
  readonly publicKey?: KeyObject | string | readonly (KeyObject | string)[];
}

/**
 * Verifies an audit log from its first line to its last, streaming it through a fixed buffer (constant
 * memory at any size): every hash recomputed from the parsed event, `seq` contiguous from 0, every `prev`
 * linked, the genesis valid, and every given checkpoint satisfied. Returns the verdict with the first
 * failure (line, seq, byte offset, stable code); never throws for a bad log, only for one it cannot read
 * (`AuditFileError`).
 *
 * `snodo audit verify` prints the result and exits 0 when `ok`, 1 otherwise.
 */
export async function verifyAuditLog(
  path: string,
  options: VerifyAuditLogOptions = {},
): Promise<AuditVerifyResult> {
  const checkpoints = options.checkpoints ?? [];
  const signatureFailure = checkSignatures(checkpoints, options.publicKey);
  if (signatureFailure !== undefined) return signatureFailure;
  return verifyChainFrom(path, new ChainVerifier(checkpoints), 0);
}

/**
 * Streams the log's lines from byte `startOffset` (a line start) through `verifier` and returns its
 * verdict: the one read both the full verification and the one resumed after a checkpoint make. Only I/O
 * failures become `AuditFileError`; anything else is a bug and keeps its own stack.
 */
export async function verifyChainFrom(
  path: string,
  verifier: ChainVerifier,
  startOffset: number,
): Promise<AuditVerifyResult> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    throw new AuditFileError({ path, cause });
  }
  try {
    const scanner = new LineScanner(handle, undefined, startOffset);
    const onLine = (bytes: Buffer, offset: number, terminated: boolean): void => {
      verifier.push(bytes, offset, terminated);
    };
    while (verifier.failure === undefined && (await scanner.next(onLine))) {
      // Each `next` runs one chunk's lines synchronously; the loop only awaits the reads.
    }
    verifier.finish(scanner.overlongOffset);
    return verifier.result();
  } catch (cause) {
    if (typeof (cause as NodeJS.ErrnoException).errno === 'number') throw new AuditFileError({ path, cause });
    throw cause;
  } finally {
    await handle.close();
  }
}

/** Checks every checkpoint signature up front; returns an `E_CKPT_SIG` verdict for the first bad one. */
export function checkSignatures(
  checkpoints: readonly SignedCheckpoint[],
  publicKey: VerifyAuditLogOptions['publicKey'],
): AuditVerifyResult | undefined {
  if (checkpoints.length === 0) return undefined;
  const sources = publicKey === undefined ? [] : Array.isArray(publicKey) ? publicKey : [publicKey];
  const keys = (sources as readonly (KeyObject | string)[]).map((source) => loadPublicKey(source));
  for (const [index, checkpoint] of checkpoints.entries()) {
    const problem =
      keys.length === 0
        ? 'no public key was given to check checkpoint signatures with'
        : checkCheckpointSignature(checkpoint, keys);
    if (problem !== undefined) {
      return {
        ok: false,
        events: 0,
        lines: 0,
        checkpointsVerified: 0,
        warnings: [],
        failure: { code: 'E_CKPT_SIG', reason: `checkpoint ${index}: ${problem}`, checkpoint: index },
      };
    }
  }
  return undefined;
}
