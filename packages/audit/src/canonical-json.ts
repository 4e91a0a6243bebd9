import { AuditEventError } from './errors/audit-event-error.js';

/** Options of `canonicalJson`. */
export interface CanonicalJsonOptions {
  /**
   * Refuse every number that is not a safe integer. Audit events use it: they carry no floats, so their
   * hash can never depend on how a number is formatted.
   */
  readonly integersOnly?: boolean;
}

// NOTE: in `u` mode a well-formed surrogate pair is one code point, so this matches lone surrogates only.
const loneSurrogate = /\p{Surrogate}/u;
const maxDepth = 512;

/**
 * The RFC 8785 (JCS) canonical JSON text of `value`: object keys sorted by UTF-16 code units, no
 * whitespace, numbers and strings serialised as ECMAScript does. Used for every hashed and signed byte in
 * this package (events, checkpoints, attestations), so a verifier in any language that implements RFC 8785
 * computes the same hashes.
 *
 * Values outside I-JSON are refused rather than coerced: `undefined`, functions, symbols, bigints,
 * non-finite numbers, lone surrogates, class instances (a `Date` has no canonical form), cycles.
 */
export function canonicalJson(value: unknown, options?: CanonicalJsonOptions): string {
  return serialize(value, options?.integersOnly === true, 0);
}

function serialize(value: unknown, integersOnly: boolean, depth: number): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value);
    case 'number':
      return serializeNumber(value, integersOnly);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= maxDepth) throw refuse(`is nested deeper than ${maxDepth} levels (or is cyclic)`);
      if (Array.isArray(value)) {
        let text = '[';
        for (let index = 0; index < value.length; index++) {
          if (index > 0) text += ',';
          text += serialize(value[index], integersOnly, depth + 1);
        }
        return `${text}]`;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) {
        throw refuse(`holds a ${prototype?.constructor?.name ?? 'class'} instance, which has no JSON form`);
      }
      const record = value as Record<string, unknown>;
      // Default sort compares UTF-16 code units, which is exactly RFC 8785's property order.
      const keys = Object.keys(record).sort();
      let text = '{';
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index]!;
        if (index > 0) text += ',';
        text += `${serializeString(key)}:${serialize(record[key], integersOnly, depth + 1)}`;
      }
      return `${text}}`;
    }
    default:
      throw refuse(`holds a ${typeof value}, which JSON cannot carry`);
  }
}

/** An RFC 8785 string: ECMAScript `JSON.stringify` escaping, lone surrogates refused (I-JSON). */
export function serializeString(value: string): string {
  if (loneSurrogate.test(value)) throw refuse('holds a string with a lone UTF-16 surrogate');
  return JSON.stringify(value);
}

function serializeNumber(value: number, integersOnly: boolean): string {
  if (!Number.isFinite(value)) throw refuse(`holds ${value}, which JSON cannot carry`);
  if (integersOnly && !Number.isSafeInteger(value)) {
    throw refuse(`holds the number ${value}; audit events carry only integers up to 2^53-1`);
  }
  // ECMAScript Number-to-String is RFC 8785's number format; -0 becomes "0" as the RFC requires.
  return String(value);
}

function refuse(problem: string): AuditEventError {
  return new AuditEventError({
    field: 'value',
    problem,
    fix: 'Pass plain JSON data: objects, arrays, strings, integers, booleans and null.',
  });
}
