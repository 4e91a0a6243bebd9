import type { AuditEvent } from './audit-event.js';
import type { AuditVerifyFailureCode } from './audit-verify-result.js';

/** Why a parsed line is not a well-formed event. */
export interface ShapeProblem {
  readonly code: AuditVerifyFailureCode;
  readonly reason: string;
  /** The seq the line claims, when it has a usable one. */
  readonly seq?: number;
}

const hex64 = /^[0-9a-f]{64}$/;
/** RFC 3339 date-time; snodo writes UTC with milliseconds, readers accept any offset and precision. */
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
/** Event types are kebab-case noun-then-verb (`job-start`); the audit package checks only the casing. */
export const eventTypePattern = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const allowedKeys = new Set(['v', 'seq', 'ts', 'type', 'job', 'actor', 'data', 'prev', 'hash']);

/**
 * Checks that a parsed line has exactly the fields of an `AuditEvent` with the right types. Does not
 * check the hash, the chain or the data's numbers (hashing refuses floats); the verifier does that next.
 */
export function checkEventShape(value: unknown): AuditEvent | ShapeProblem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { code: 'E_PARSE', reason: 'the line is JSON but not an object' };
  }
  const record = value as Record<string, unknown>;
  const seq =
    Number.isSafeInteger(record.seq) && (record.seq as number) >= 0 ? (record.seq as number) : undefined;
  const problem = (reason: string): ShapeProblem =>
    seq === undefined ? { code: 'E_FIELD', reason } : { code: 'E_FIELD', reason, seq };
  if (record.v !== 1) return problem(`field v is ${JSON.stringify(record.v)}, expected 1`);
  if (seq === undefined)
    return problem(`field seq is ${JSON.stringify(record.seq)}, expected an integer >= 0`);
  if (typeof record.ts !== 'string' || !rfc3339.test(record.ts)) {
    return problem(`field ts is ${JSON.stringify(record.ts)}, expected an RFC 3339 timestamp`);
  }
  if (typeof record.type !== 'string' || !eventTypePattern.test(record.type)) {
    return problem(`field type is ${JSON.stringify(record.type)}, expected a kebab-case name`);
  }
  if (record.job !== undefined && (typeof record.job !== 'string' || record.job === '')) {
    return problem(`field job is ${JSON.stringify(record.job)}, expected a non-empty string`);
  }
  if (typeof record.actor !== 'string' || record.actor === '') {
    return problem(`field actor is ${JSON.stringify(record.actor)}, expected a non-empty string`);
  }
  const data = record.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return problem('field data is missing or not an object');
  }
  if (typeof record.prev !== 'string' || !hex64.test(record.prev)) {
    return problem('field prev is missing or not 64 lowercase hex digits');
  }
  if (typeof record.hash !== 'string' || !hex64.test(record.hash)) {
    return problem('field hash is missing or not 64 lowercase hex digits');
  }
  for (const key in record) {
    if (!allowedKeys.has(key)) return problem(`unknown field ${JSON.stringify(key)}`);
  }
  return value as AuditEvent;
}

/** `true` when `checkEventShape` returned a problem rather than an event. */
export function isShapeProblem(value: AuditEvent | ShapeProblem): value is ShapeProblem {
  return !('hash' in value);
}

/** Checks the genesis-specific rules; `undefined` when `event` is a valid genesis. */
export function checkGenesis(event: AuditEvent): string | undefined {
  if (event.seq !== 0) return `the first event has seq ${event.seq}, expected 0`;
  if (event.type !== 'log-create') return `the first event has type ${event.type}, expected log-create`;
  if (event.prev !== '0'.repeat(64)) return 'the genesis event has a prev other than 64 zeros';
  if (event.job !== undefined) return 'the genesis event belongs to a job';
  const data = event.data as Record<string, unknown>;
  if (typeof data.log_id !== 'string' || !/^[0-9a-f]{32}$/.test(data.log_id)) {
    return 'the genesis event has no log_id of 32 lowercase hex digits';
  }
  const repository = data.repository;
  if (repository === null || typeof repository !== 'object' || Array.isArray(repository)) {
    return 'the genesis event names no repository identity';
  }
  if (typeof data.created_by !== 'string' || data.created_by === '') {
    return 'the genesis event has no created_by';
  }
  return undefined;
}
