import type { AuditData, AuditValue } from './audit-event.js';
import { AuditEventError } from './errors/audit-event-error.js';
import { REDACTED, type Redactor } from './redactor.js';

const maxDepth = 64;
const loneSurrogate = /\p{Surrogate}/u;

/**
 * Checks and copies an event's `data` on its way into the log, masking secrets in the same pass (before
 * hashing, so the hash never commits to a secret). Numbers must be safe integers; values plain JSON;
 * `undefined` properties are dropped as `JSON.stringify` drops them. Throws `AuditEventError` naming the
 * path of the first bad value (`data.usage.costUsd`).
 */
export function prepareEventData(data: unknown, redactor: Redactor): AuditData {
  if (data === undefined) return {};
  if (!isPlainObject(data)) throw invalid('data', 'is not a plain object');
  return copyObject(data, 'data', redactor, 0);
}

function copyValue(value: unknown, path: string, redactor: Redactor, depth: number): AuditValue {
  switch (typeof value) {
    case 'string':
      if (loneSurrogate.test(value)) throw invalid(path, 'holds a lone UTF-16 surrogate');
      return redactor.redactString(value);
    case 'number':
      if (!Number.isSafeInteger(value)) {
        throw invalid(path, `is ${value}; audit events carry only integers up to 2^53-1`);
      }
      return value;
    case 'boolean':
      return value;
    case 'object': {
      if (value === null) return null;
      if (depth >= maxDepth) throw invalid(path, `is nested deeper than ${maxDepth} levels (or is cyclic)`);
      if (Array.isArray(value)) {
        return value.map((item, index) => {
          if (item === undefined) throw invalid(`${path}[${index}]`, 'is undefined');
          return copyValue(item, `${path}[${index}]`, redactor, depth + 1);
        });
      }
      if (!isPlainObject(value)) {
        const kind = (Object.getPrototypeOf(value) as { constructor?: { name?: string } }).constructor?.name;
        throw invalid(path, `is a ${kind ?? 'class'} instance, which has no JSON form`);
      }
      return copyObject(value, path, redactor, depth);
    }
    default:
      throw invalid(path, `is a ${typeof value}, which JSON cannot carry`);
  }
}

function copyObject(
  source: Record<string, unknown>,
  path: string,
  redactor: Redactor,
  depth: number,
): Record<string, AuditValue> {
  const copy: Record<string, AuditValue> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (value === undefined) continue;
    if (loneSurrogate.test(key)) throw invalid(`${path}.${key}`, 'has a key with a lone UTF-16 surrogate');
    const childPath = `${path}.${key}`;
    const safeKey = redactor.redactString(key);
    // Null and booleans under a secret-looking key say only whether a secret is set; anything else is masked.
    const masked = redactor.isSecretKey(key) && value !== null && typeof value !== 'boolean';
    const copied = masked ? REDACTED : copyValue(value, childPath, redactor, depth + 1);
    // NOTE: plain assignment to a "__proto__" key would set the prototype instead of a property.
    Object.defineProperty(copy, safeKey, {
      value: copied,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function invalid(field: string, problem: string): AuditEventError {
  return new AuditEventError({
    field,
    problem,
    fix: 'Pass plain JSON data with integers only: store amounts in integer units (cents, milliseconds) or as strings.',
  });
}
