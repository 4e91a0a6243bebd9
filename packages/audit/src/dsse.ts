import { type KeyObject, sign, verify } from 'node:crypto';
import { keyIdOf, type SigningKey } from './signing-key.js';

/**
 * A DSSE envelope (secure-systems-lab/dsse v1): a payload, its type, and signatures over the PAE of the
 * two, so the type is signed too. Stock DSSE tooling verifies it with the public key.
 */
export interface DsseEnvelope {
  /** Media type of the payload (`application/vnd.in-toto+json` for attestations). */
  readonly payloadType: string;
  /** The payload, standard base64. */
  readonly payload: string;
  /** One signature per key. */
  readonly signatures: readonly DsseSignature[];
}

/** One DSSE signature. */
export interface DsseSignature {
  /** Key id of the signer (see `keyIdOf`). */
  readonly keyid: string;
  /** Standard base64 ed25519 signature over the PAE. */
  readonly sig: string;
}

/**
 * DSSE's Pre-Authentication Encoding: `"DSSEv1" SP len(type) SP type SP len(body) SP body`, lengths as
 * ASCII decimal counts of bytes (not characters).
 */
export function preAuthEncoding(payloadType: string, payload: Buffer | string): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'utf8'),
    type,
    Buffer.from(` ${body.length} `, 'utf8'),
    body,
  ]);
}

/** Signs `payload` of `payloadType` into a DSSE envelope with `key`. */
export function signEnvelope(payloadType: string, payload: Buffer, key: SigningKey): DsseEnvelope {
  const sig = sign(null, preAuthEncoding(payloadType, payload), key.privateKey).toString('base64');
  return { payloadType, payload: payload.toString('base64'), signatures: [{ keyid: key.keyId, sig }] };
}

/** The outcome of `openEnvelope`. */
export type OpenedEnvelope =
  | { readonly ok: true; readonly payload: Buffer; readonly keyId: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Checks an envelope's shape and that at least one signature verifies with one of `publicKeys` (matched
 * by key id; a signature without key id is tried against every key). Returns the decoded payload.
 */
export function openEnvelope(envelope: unknown, publicKeys: readonly KeyObject[]): OpenedEnvelope {
  if (envelope === null || typeof envelope !== 'object')
    return { ok: false, reason: 'the envelope is not an object' };
  const { payloadType, payload, signatures } = envelope as Record<string, unknown>;
  if (typeof payloadType !== 'string' || typeof payload !== 'string' || !Array.isArray(signatures)) {
    return { ok: false, reason: 'the envelope lacks payloadType, payload or signatures' };
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) return { ok: false, reason: 'the payload is not base64' };
  const body = Buffer.from(payload, 'base64');
  const message = preAuthEncoding(payloadType, body);
  const keys = publicKeys.map((key) => ({ key, keyId: keyIdOf(key) }));
  for (const signature of signatures as unknown[]) {
    const { keyid, sig } = (signature ?? {}) as Record<string, unknown>;
    if (typeof sig !== 'string') continue;
    for (const candidate of keys) {
      if (typeof keyid === 'string' && keyid !== '' && keyid !== candidate.keyId) continue;
      let good = false;
      try {
        good = verify(null, message, candidate.key, Buffer.from(sig, 'base64'));
      } catch {
        good = false;
      }
      if (good) return { ok: true, payload: body, keyId: candidate.keyId };
    }
  }
  return { ok: false, reason: 'no signature verifies with the given public key(s)' };
}
