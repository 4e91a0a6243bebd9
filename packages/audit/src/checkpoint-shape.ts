import type { SignedCheckpoint } from './checkpoint.js';
import { AuditCheckpointError } from './errors.js';

const hex64 = /^[0-9a-f]{64}$/;

/**
 * Checks that a parsed value is a `SignedCheckpoint` (fields and types, not the signature) and returns
 * it with exactly those fields. `source` names where it came from, for the error.
 */
export function parseCheckpointObject(value: unknown, source: string): SignedCheckpoint {
  const fail = (problem: string): AuditCheckpointError => new AuditCheckpointError({ source, problem });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail('it is not an object');
  const record = value as Record<string, unknown>;
  if (typeof record.log_id !== 'string' || !/^[0-9a-f]{32}$/.test(record.log_id)) {
    throw fail('log_id is not 32 hex digits');
  }
  if (!Number.isSafeInteger(record.size) || (record.size as number) < 1) {
    throw fail('size is not a positive integer');
  }
  if (typeof record.head_hash !== 'string' || !hex64.test(record.head_hash)) {
    throw fail('head_hash is not 64 hex digits');
  }
  if (typeof record.ts !== 'string') throw fail('ts is not a string');
  if (typeof record.key_id !== 'string' || !/^[0-9a-f]{16}$/.test(record.key_id)) {
    throw fail('key_id is not 16 hex digits');
  }
  if (typeof record.sig !== 'string' || record.sig === '') throw fail('sig is missing');
  return {
    log_id: record.log_id,
    size: record.size as number,
    head_hash: record.head_hash,
    ts: record.ts,
    key_id: record.key_id,
    sig: record.sig,
  };
}
