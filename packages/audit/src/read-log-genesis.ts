import { closeSync, openSync, readSync } from 'node:fs';
import type { AuditEvent } from './audit-event.js';
import type { AuditLogHeadRecord, AuditLogPrevious } from './audit-log-reset.js';
import { serializeEvent } from './event-hash.js';
import { checkEventShape, checkGenesis, isShapeProblem } from './event-shape.js';
import { MAX_LINE_BYTES } from './line-scanner.js';

/** A log's genesis event, read on its own, with what a reset recorded in it. */
export interface AuditLogGenesis {
  readonly event: AuditEvent;
  readonly logId: string;
  /** The log this one replaced (`snodo audit reset`), when it was started by a reset. */
  readonly previous?: AuditLogPrevious;
  /** Other log ids the reset superseded. */
  readonly superseded: readonly AuditLogHeadRecord[];
}

/**
 * Reads and checks only the first line of a log: a valid genesis event (hash recomputed) or `undefined`
 * when the file is missing or its first line is not one. Cheap at any log size, for the anchor checks
 * that run before every `snodo run`; a full verification still reads every line.
 */
export function readLogGenesis(path: string): AuditLogGenesis | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch {
    return undefined;
  }
  let text: string | undefined;
  try {
    text = firstLine(descriptor);
  } finally {
    closeSync(descriptor);
  }
  if (text === undefined) return undefined;
  let event: AuditEvent;
  try {
    const checked = checkEventShape(JSON.parse(text));
    if (isShapeProblem(checked) || checkGenesis(checked) !== undefined) return undefined;
    const serialized = serializeEvent(checked);
    if (serialized.hash !== checked.hash || serialized.line !== text) return undefined;
    event = checked;
  } catch {
    return undefined;
  }
  const data = event.data as Record<string, unknown>;
  const previous = headRecord(data.previous);
  const superseded = Array.isArray(data.superseded)
    ? data.superseded.map(headRecord).filter((record) => record !== undefined)
    : [];
  return {
    event,
    logId: data.log_id as string,
    ...(previous === undefined ? {} : { previous: previous as AuditLogPrevious }),
    superseded,
  };
}

function headRecord(value: unknown): AuditLogHeadRecord | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.log_id !== 'string' || !/^[0-9a-f]{32}$/.test(record.log_id)) return undefined;
  if (!Number.isSafeInteger(record.size) || typeof record.head_hash !== 'string') return undefined;
  return value as AuditLogHeadRecord;
}

function firstLine(descriptor: number): string | undefined {
  const chunks: Buffer[] = [];
  let position = 0;
  while (position <= MAX_LINE_BYTES) {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    const read = readSync(descriptor, buffer, 0, buffer.length, position);
    if (read === 0) return undefined;
    const newline = buffer.subarray(0, read).indexOf(10);
    if (newline !== -1) {
      chunks.push(buffer.subarray(0, newline));
      return Buffer.concat(chunks).toString('utf8');
    }
    chunks.push(buffer.subarray(0, read));
    position += read;
  }
  return undefined;
}
