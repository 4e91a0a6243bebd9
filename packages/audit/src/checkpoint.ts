import { type KeyObject, sign, verify } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { keyIdOf, type SigningKey } from './signing-key.js';

/**
 * Domain tag of checkpoint signatures, distinct from the event hash tag so a signature over a checkpoint
 * can never be replayed as anything else.
 */
export const CHECKPOINT_DOMAIN = 'snodo/audit/checkpoint/v1\0';

/** What a checkpoint states: "log `log_id` had `size` events and its last one hashed to `head_hash`". */
export interface AuditCheckpointBody {
  /** The log id from the genesis event. */
  readonly log_id: string;
  /** Number of events covered (the head's `seq` + 1). */
  readonly size: number;
  /** `hash` of event `size - 1`. */
  readonly head_hash: string;
  /** When it was signed, RFC 3339 UTC. */
  readonly ts: string;
  /** Key id of the signing key (see `keyIdOf`). */
  readonly key_id: string;
}

/**
 * A signed checkpoint: anchors the log's head outside the log (commit trailer, `refs/snodo/audit`, the
 * checkpoint store), so cutting off the tail or rewriting the anchored prefix is caught by
 * `verifyAuditLog({ checkpoints, publicKey })`.
 */
export interface SignedCheckpoint extends AuditCheckpointBody {
  /** Base64 ed25519 signature over `CHECKPOINT_DOMAIN` + the canonical JSON of the body. */
  readonly sig: string;
}

/** What to sign: the head of a log. */
export interface CheckpointHead {
  /** The log id. */
  readonly logId: string;
  /** Number of events (head seq + 1). */
  readonly size: number;
  /** Hash of the head event. */
  readonly headHash: string;
}

/** Signs a head with `key`. `AuditLog.checkpoint` is the usual caller; it reads the head under the lock. */
export function signCheckpoint(
  head: CheckpointHead,
  key: SigningKey,
  now: Date = new Date(),
): SignedCheckpoint {
  const body: AuditCheckpointBody = {
    log_id: head.logId,
    size: head.size,
    head_hash: head.headHash,
    ts: now.toISOString(),
    key_id: key.keyId,
  };
  const sig = sign(null, checkpointMessage(body), key.privateKey).toString('base64');
  return { ...body, sig };
}

/**
 * Checks a checkpoint's signature against the key among `publicKeys` whose id it names. Returns the
 * problem in words, or `undefined` when the signature is good.
 */
export function checkCheckpointSignature(
  checkpoint: SignedCheckpoint,
  publicKeys: readonly KeyObject[],
): string | undefined {
  const key = publicKeys.find((candidate) => keyIdOf(candidate) === checkpoint.key_id);
  if (key === undefined) {
    const known = publicKeys.map(keyIdOf).join(', ') || 'none';
    return `it is signed by key ${checkpoint.key_id}, and the given public keys are ${known}`;
  }
  const { sig, ...body } = checkpoint;
  let good = false;
  try {
    good = verify(null, checkpointMessage(body), key, Buffer.from(sig, 'base64'));
  } catch {
    good = false;
  }
  return good ? undefined : `its signature does not verify with key ${checkpoint.key_id}`;
}

/** The exact bytes a checkpoint signature covers. */
function checkpointMessage(body: AuditCheckpointBody): Buffer {
  const canonical = canonicalJson({
    head_hash: body.head_hash,
    key_id: body.key_id,
    log_id: body.log_id,
    size: body.size,
    ts: body.ts,
  });
  return Buffer.concat([Buffer.from(CHECKPOINT_DOMAIN, 'utf8'), Buffer.from(canonical, 'utf8')]);
}
