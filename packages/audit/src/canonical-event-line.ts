import { LOG_CREATE_TYPE, LOG_RECOVER_TYPE } from './audit-event.js';
import {
  matchAscii,
  QUOTE,
  readInteger,
  skipCanonicalInteger,
  skipCanonicalString,
  skipCanonicalValue,
} from './canonical-bytes.js';

/** `,"hash":"` — the bytes before the hash's hex digits. */
export const HASH_FIELD_PREFIX_BYTES = 9;
/** `,"hash":"` + 64 hex digits + `"`: what a line has and its hashed text has not. */
export const HASH_FIELD_BYTES = HASH_FIELD_PREFIX_BYTES + 64 + 1;

/** Where the fields the chain needs lie in a canonical event line; filled in place by `scanEventLine`. */
export interface EventLineFields {
  /** The line's `seq`. */
  seq: number;
  /** Index of the `,` of `,"hash":"…"`: the hashed text is the line without the `HASH_FIELD_BYTES` there. */
  hashField: number;
  /** Index of the first hex digit of `prev`. */
  prev: number;
  /** What the type means to the chain: an ordinary event, or one of the two the log writes itself. */
  kind: 'event' | 'log-create' | 'log-recover';
}

/** A fresh `EventLineFields` to fill, one per verifier: scanning a line allocates nothing. */
export function eventLineFields(): EventLineFields {
  return { seq: 0, hashField: 0, prev: 0, kind: 'event' };
}

/**
 * Recognises a line that is certainly an event exactly as `serializeEvent` writes it — the top-level keys in
 * their one canonical order (actor, data, hash, job?, prev, seq, ts, type, v), every field of the shape
 * `checkEventShape` requires, and canonical data — and notes where its fields lie. Then the hash of the line
 * is the hash of its own bytes without the hash field, and no parse and re-serialisation is needed to check
 * it (`hashCanonicalLine`). `false` means only "not vouched for here": the caller parses the line, which
 * accepts it or names what is wrong. `bytes` must be valid UTF-8.
 */
export function scanEventLine(bytes: Uint8Array, fields: EventLineFields): boolean {
  let at = matchAscii(bytes, 0, '{"actor":');
  const actorEnd = at < 0 ? -1 : skipCanonicalString(bytes, at);
  if (actorEnd < 0 || actorEnd - at === 2) return false;
  at = matchAscii(bytes, actorEnd, ',"data":');
  if (at < 0 || bytes[at] !== 0x7b) return false;
  const dataEnd = skipCanonicalValue(bytes, at, 0);
  if (dataEnd < 0) return false;
  at = matchAscii(bytes, dataEnd, ',"hash":"');
  if (at < 0 || !isQuotedHex64(bytes, at)) return false;
  at += 65;
  const jobAt = matchAscii(bytes, at, ',"job":');
  if (jobAt >= 0) {
    const jobEnd = skipCanonicalString(bytes, jobAt);
    if (jobEnd < 0 || jobEnd - jobAt === 2) return false;
    at = jobEnd;
  }
  const prevAt = matchAscii(bytes, at, ',"prev":"');
  if (prevAt < 0 || !isQuotedHex64(bytes, prevAt)) return false;
  const seqAt = matchAscii(bytes, prevAt + 65, ',"seq":');
  // A negative seq fails the shape check; the parser names it.
  if (seqAt < 0 || bytes[seqAt] === 0x2d) return false;
  const seqEnd = skipCanonicalInteger(bytes, seqAt);
  if (seqEnd < 0) return false;
  const tsAt = matchAscii(bytes, seqEnd, ',"ts":');
  const tsEnd = tsAt < 0 ? -1 : skipCanonicalString(bytes, tsAt);
  if (tsEnd < 0 || !isTimestamp(bytes, tsAt + 1, tsEnd - 1)) return false;
  const typeAt = matchAscii(bytes, tsEnd, ',"type":');
  const typeEnd = typeAt < 0 ? -1 : skipCanonicalString(bytes, typeAt);
  if (typeEnd < 0 || !isKebabCase(bytes, typeAt + 1, typeEnd - 1)) return false;
  if (matchAscii(bytes, typeEnd, ',"v":1}') !== bytes.length) return false;
  fields.seq = readInteger(bytes, seqAt, seqEnd);
  fields.hashField = dataEnd;
  fields.prev = prevAt;
  fields.kind = typeIs(bytes, typeAt, typeEnd, LOG_CREATE_TYPE)
    ? 'log-create'
    : typeIs(bytes, typeAt, typeEnd, LOG_RECOVER_TYPE)
      ? 'log-recover'
      : 'event';
  return true;
}

/** `lowercaseHex[byte]` is 1 for `0-9a-f`: one load per digit on the 128 hex digits of every line. */
const lowercaseHex = new Uint8Array(256);
for (const digit of '0123456789abcdef') lowercaseHex[digit.charCodeAt(0)] = 1;

/** 64 lowercase hex digits followed by a closing quote. */
function isQuotedHex64(bytes: Uint8Array, at: number): boolean {
  if (bytes[at + 64] !== QUOTE) return false;
  for (let index = at; index < at + 64; index++) {
    if (lowercaseHex[bytes[index]!] !== 1) return false;
  }
  return true;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** `event-shape.ts`'s RFC 3339 pattern, on bytes: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`. */
function isTimestamp(bytes: Uint8Array, at: number, end: number): boolean {
  const layout = 'dddd-dd-ddTdd:dd:dd';
  if (end - at < layout.length + 1) return false;
  for (let offset = 0; offset < layout.length; offset++) {
    const expected = layout.charCodeAt(offset);
    const byte = bytes[at + offset];
    if (expected === 0x64 ? !isDigit(byte) : byte !== expected) return false;
  }
  let index = at + layout.length;
  if (bytes[index] === 0x2e) {
    index++;
    if (!isDigit(bytes[index])) return false;
    while (isDigit(bytes[index])) index++;
  }
  if (bytes[index] === 0x5a) return index + 1 === end; // Z
  if (bytes[index] !== 0x2b && bytes[index] !== 0x2d) return false;
  return (
    index + 6 === end &&
    isDigit(bytes[index + 1]) &&
    isDigit(bytes[index + 2]) &&
    bytes[index + 3] === 0x3a &&
    isDigit(bytes[index + 4]) &&
    isDigit(bytes[index + 5])
  );
}

/** `event-shape.ts`'s `eventTypePattern`, on bytes: lowercase words of letters and digits joined by `-`. */
function isKebabCase(bytes: Uint8Array, at: number, end: number): boolean {
  const first = bytes[at];
  if (at >= end || first === undefined || first < 0x61 || first > 0x7a) return false;
  let afterDash = false;
  for (let index = at + 1; index < end; index++) {
    const byte = bytes[index]!;
    if (byte === 0x2d) {
      if (afterDash) return false;
      afterDash = true;
      continue;
    }
    if (!((byte >= 0x61 && byte <= 0x7a) || isDigit(byte))) return false;
    afterDash = false;
  }
  return !afterDash;
}

function typeIs(bytes: Uint8Array, at: number, end: number, type: string): boolean {
  return end - at === type.length + 2 && matchAscii(bytes, at + 1, type) === end - 1;
}
