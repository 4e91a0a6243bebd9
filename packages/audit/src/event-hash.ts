import { hash as digest } from 'node:crypto';
import type { AuditEventBody } from './audit-event.js';
import { HASH_FIELD_BYTES } from './canonical-event-line.js';
import { canonicalJson, serializeString } from './canonical-json.js';

/**
 * Domain tag of event hashes. Distinct tags for events and checkpoints mean a hash computed for one can
 * never be passed off as the other.
 */
export const EVENT_HASH_DOMAIN = 'snodo/audit/v1\0';

/** An event serialised for the file: its hash and its line (canonical JSON, no trailing newline). */
export interface SerializedEvent {
  /** Lowercase hex SHA-256 of the domain tag + canonical JSON of the event without `hash`. */
  readonly hash: string;
  /** The canonical JSON of the whole event, `hash` included. */
  readonly line: string;
}

/**
 * Hashes an event body and renders its line. The canonical form is assembled by hand in the fixed RFC 8785
 * key order (actor, data, hash, job, prev, seq, ts, type, v), so the top level needs no sort and the line
 * is the hashed text with `"hash":"…"` inserted after `data`: one canonicalisation serves both.
 *
 * Throws `AuditEventError` when `data` holds something canonical JSON refuses (a float, a lone surrogate).
 */
export function serializeEvent(body: AuditEventBody): SerializedEvent {
  const head = `{"actor":${serializeString(body.actor)},"data":${canonicalJson(body.data, { integersOnly: true })}`;
  const tail =
    (body.job === undefined ? '' : `,"job":${serializeString(body.job)}`) +
    `,"prev":${serializeString(body.prev)},"seq":${body.seq},"ts":${serializeString(body.ts)}` +
    `,"type":${serializeString(body.type)},"v":${body.v}}`;
  // One-shot hashing: no Hash object per event, which matters when verifying millions of them.
  const hash = digest('sha256', EVENT_HASH_DOMAIN + head + tail, 'hex');
  return { hash, line: `${head},"hash":"${hash}"${tail}` };
}

/** The hash of an event body (see `serializeEvent`). */
export function hashEvent(body: AuditEventBody): string {
  return serializeEvent(body).hash;
}

const domainBytes = Buffer.from(EVENT_HASH_DOMAIN, 'utf8');
/** The domain tag followed by the line being hashed, reused for every line up to 64 KiB (nearly all). */
let sharedHashInput: Buffer | undefined;

/**
 * The hash of a line `scanEventLine` recognised as canonical, computed from its bytes: the domain tag, the
 * line up to `hashField`, then the line after the hash field. For a canonical line those are exactly the
 * bytes `serializeEvent` hashes, so the chain's definition is unchanged; the verifier only skips parsing
 * the line and rendering it again.
 */
export function hashCanonicalLine(line: Buffer, hashField: number): string {
  const length = domainBytes.length + line.length - HASH_FIELD_BYTES;
  sharedHashInput ??= hashInputOf(64 * 1024);
  // A rare long line gets its own buffer, so the shared one never keeps megabytes alive.
  const input = length <= sharedHashInput.length ? sharedHashInput : hashInputOf(length);
  line.copy(input, domainBytes.length, 0, hashField);
  line.copy(input, domainBytes.length + hashField, hashField + HASH_FIELD_BYTES);
  return digest('sha256', input.subarray(0, length), 'hex');
}

function hashInputOf(length: number): Buffer {
  const input = Buffer.allocUnsafe(length);
  domainBytes.copy(input, 0);
  return input;
}
