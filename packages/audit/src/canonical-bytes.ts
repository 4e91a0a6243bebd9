// Byte codes of the JSON syntax the canonical checks below read.
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Deeper data is left to the parsing check, which allows up to 512 levels. */
const maxFastDepth = 64;
/** 2^53 - 1 has 16 digits; a longer run of digits is never a safe integer. */
const maxIntegerDigits = 16;

/**
 * Where the value starting at `at` ends, when it is certainly a value `canonicalJson(…, { integersOnly })`
 * renders exactly so: no whitespace, object keys in strictly ascending order, integers up to 2^53-1 without
 * leading zeros or `-0`, strings escaped as `JSON.stringify` escapes them. Returns -1 when it is not, or when
 * this check cannot vouch for it (keys with escapes or non-ASCII characters, deep nesting, a `\u` escape of
 * a surrogate): the caller then parses and re-serialises the line, which decides.
 *
 * The bytes must be valid UTF-8 (checked once per line by the caller); the scan only reads them, so
 * verifying a line allocates nothing.
 */
export function skipCanonicalValue(bytes: Uint8Array, at: number, depth: number): number {
  switch (bytes[at]) {
    case QUOTE:
      return skipCanonicalString(bytes, at);
    case OPEN_BRACE:
      return depth >= maxFastDepth ? -1 : skipCanonicalObject(bytes, at, depth + 1);
    case OPEN_BRACKET:
      return depth >= maxFastDepth ? -1 : skipCanonicalArray(bytes, at, depth + 1);
    case 0x74: // t
      return matchAscii(bytes, at, 'true');
    case 0x66: // f
      return matchAscii(bytes, at, 'false');
    case 0x6e: // n
      return matchAscii(bytes, at, 'null');
    default:
      return skipCanonicalInteger(bytes, at);
  }
}

/**
 * Where the string token starting at `at` (its opening quote) ends, just past the closing quote, when it is
 * exactly `JSON.stringify` of its value: raw characters except `"`, `\` and controls; the short escapes
 * `\" \\ \b \t \n \f \r`; `\u00xx` in lowercase for the other controls. A `\u` escape of anything else (a
 * lone surrogate, which canonical JSON refuses, or a character `JSON.stringify` leaves raw) returns -1.
 */
export function skipCanonicalString(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== QUOTE) return -1;
  const end = bytes.length;
  for (let index = at + 1; index < end; index++) {
    const byte = bytes[index]!;
    if (byte === QUOTE) return index + 1;
    if (byte < 0x20) return -1;
    if (byte !== BACKSLASH) continue;
    index++;
    switch (bytes[index]) {
      case QUOTE:
      case BACKSLASH:
      case 0x62: // b
      case 0x66: // f
      case 0x6e: // n
      case 0x72: // r
      case 0x74: // t
        break;
      case 0x75: {
        // u: only `\u00xx` for a control character without a short escape.
        const code = controlEscape(bytes, index + 1);
        if (code < 0 || code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) {
          return -1;
        }
        index += 4;
        break;
      }
      default:
        return -1;
    }
  }
  return -1;
}

/** The code of a `00xx` escape body (lowercase hex) below 0x20, or -1. */
function controlEscape(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== ZERO || bytes[at + 1] !== ZERO) return -1;
  const high = bytes[at + 2];
  if (high !== ZERO && high !== 0x31) return -1;
  const low = hexDigit(bytes[at + 3]);
  return low < 0 ? -1 : (high === ZERO ? 0 : 16) + low;
}

function hexDigit(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= ZERO && byte <= NINE) return byte - ZERO;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}

/**
 * Where the integer starting at `at` ends, when it is how `String(n)` writes a safe integer: `0`, or an
 * optional `-` and digits without a leading zero (never `-0`), at most 2^53-1 in magnitude. A fraction or an
 * exponent after it leaves the caller looking at a byte that is not `,`, `]` or `}`, which fails there.
 */
export function skipCanonicalInteger(bytes: Uint8Array, at: number): number {
  let index = bytes[at] === MINUS ? at + 1 : at;
  const first = bytes[index];
  if (first === undefined || first < ZERO || first > NINE) return -1;
  if (first === ZERO) {
    // `0` alone; `-0` and `01` are not how a number is written.
    if (index !== at) return -1;
    const next = bytes[index + 1];
    return next !== undefined && next >= ZERO && next <= NINE ? -1 : index + 1;
  }
  const start = index;
  let value = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    if (byte < ZERO || byte > NINE) break;
    value = value * 10 + (byte - ZERO);
    index++;
  }
  if (index - start > maxIntegerDigits || value > Number.MAX_SAFE_INTEGER) return -1;
  return index;
}

/** The value of the canonical non-negative integer in `bytes[at, end)` (already checked). */
export function readInteger(bytes: Uint8Array, at: number, end: number): number {
  let value = 0;
  for (let index = at; index < end; index++) value = value * 10 + (bytes[index]! - ZERO);
  return value;
}

function skipCanonicalObject(bytes: Uint8Array, at: number, depth: number): number {
  let index = at + 1;
  if (bytes[index] === CLOSE_BRACE) return index + 1;
  let previousKey = -1;
  let previousKeyEnd = -1;
  for (;;) {
    const keyEnd = skipPlainKey(bytes, index);
    if (keyEnd < 0) return -1;
    // RFC 8785 sorts keys by UTF-16 code units; for ASCII keys that is their byte order (quotes left out,
    // so that a key sorts after its prefix). Equal keys (a duplicate, which parsing folds into one) are
    // not ascending either.
    if (previousKey >= 0 && compareBytes(bytes, previousKey, previousKeyEnd, index + 1, keyEnd - 1) >= 0) {
      return -1;
    }
    previousKey = index + 1;
    previousKeyEnd = keyEnd - 1;
    if (bytes[keyEnd] !== COLON) return -1;
    index = skipCanonicalValue(bytes, keyEnd + 1, depth);
    if (index < 0) return -1;
    const separator = bytes[index];
    if (separator === CLOSE_BRACE) return index + 1;
    if (separator !== COMMA) return -1;
    index++;
  }
}

function skipCanonicalArray(bytes: Uint8Array, at: number, depth: number): number {
  let index = at + 1;
  if (bytes[index] === CLOSE_BRACKET) return index + 1;
  for (;;) {
    index = skipCanonicalValue(bytes, index, depth);
    if (index < 0) return -1;
    const separator = bytes[index];
    if (separator === CLOSE_BRACKET) return index + 1;
    if (separator !== COMMA) return -1;
    index++;
  }
}

/** A key of printable ASCII without escapes (every key snodo writes); anything else goes to the parser. */
function skipPlainKey(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== QUOTE) return -1;
  for (let index = at + 1; index < bytes.length; index++) {
    const byte = bytes[index]!;
    if (byte === QUOTE) return index + 1;
    if (byte < 0x20 || byte > 0x7e || byte === BACKSLASH) return -1;
  }
  return -1;
}

/** Compares two byte ranges as unsigned bytes: negative, zero or positive. */
function compareBytes(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): number {
  const length = Math.min(aEnd - a, bEnd - b);
  for (let offset = 0; offset < length; offset++) {
    const difference = bytes[a + offset]! - bytes[b + offset]!;
    if (difference !== 0) return difference;
  }
  return aEnd - a - (bEnd - b);
}

/** Index just past `text` when the bytes at `at` spell it (ASCII), else -1. */
export function matchAscii(bytes: Uint8Array, at: number, text: string): number {
  if (at + text.length > bytes.length) return -1;
  for (let offset = 0; offset < text.length; offset++) {
    if (bytes[at + offset] !== text.charCodeAt(offset)) return -1;
  }
  return at + text.length;
}
