import { createHash } from 'node:crypto';
import { fstatSync, readSync } from 'node:fs';
import type { AuditEvent } from './audit-event.js';
import type { AuditVerifyFailure } from './audit-verify-result.js';
import { AuditChainError } from './errors/audit-chain-error.js';
import { serializeEvent } from './event-hash.js';
import { checkEventShape, isShapeProblem } from './event-shape.js';
import { MAX_LINE_BYTES } from './line-scanner.js';

/** A half-written last line found at the end of the file. */
export interface TailFragment {
  /** Byte offset of its first byte. */
  readonly offset: number;
  /** Its length in bytes. */
  readonly length: number;
  /** Lowercase hex SHA-256 of its bytes. */
  readonly sha256: string;
  /** The event it holds when it is a complete, valid next event that only lacks its newline. */
  readonly event?: AuditEvent;
}

/** The end of the log as a writer needs it: the last event and any torn fragment after it. */
export interface LogTail {
  /** The last complete, newline-terminated event; its hash was recomputed. */
  readonly head: AuditEvent;
  /** Byte offset of the head's line. */
  readonly headOffset: number;
  /** Length in bytes of the head's line, without its newline. */
  readonly headLength: number;
  /** Lowercase hex SHA-256 of the head line's bytes with its newline, to recognise it later. */
  readonly headLineSha256: string;
  /** A fragment after the head (the file does not end in a newline). */
  readonly fragment?: TailFragment;
}

const initialWindow = 4 * 1024;

/**
 * Reads the head of the log from the end of the file (never from memory: another process may have
 * appended since), re-checking the last event's hash. Reads a 64 KiB window, widened only for a very long
 * last line, so an append costs the same at any log size. Throws `AuditChainError` when the last event
 * does not verify, since appending after it would extend a broken chain. With `limit`, reads the file as if
 * it ended there (a snapshot taken at that size).
 */
export function readLogTail(descriptor: number, path: string, limit?: number): LogTail {
  const size = limit ?? fstatSync(descriptor).size;
  if (size === 0)
    throw chainError(path, {
      code: 'E_GENESIS',
      reason: 'the log file is empty',
      line: 1,
      seq: 0,
      byteOffset: 0,
    });
  for (let window = Math.min(size, initialWindow); ; window = Math.min(size, window * 4)) {
    const start = size - window;
    const buffer = Buffer.allocUnsafe(window);
    readFully(descriptor, buffer, start);
    const torn = buffer[window - 1] !== 10;
    const lastNewline = buffer.lastIndexOf(10, window - 1);
    // The head line ends at the last newline; it starts after the newline before it.
    const headEnd = lastNewline;
    const headStartNewline = headEnd <= 0 ? -1 : buffer.lastIndexOf(10, headEnd - 1);
    const complete = headEnd !== -1 && (headStartNewline !== -1 || start === 0);
    if (!complete) {
      if (window === size || window > 2 * MAX_LINE_BYTES + 2) {
        throw chainError(path, {
          code: headEnd === -1 ? 'E_GENESIS' : 'E_PARSE',
          reason:
            headEnd === -1
              ? 'the log holds no complete line'
              : 'the last line is longer than any writer produces',
          byteOffset: start,
        });
      }
      continue;
    }
    const headStart = headStartNewline + 1;
    const headBytes = buffer.subarray(headStart, headEnd);
    const head = parseHead(headBytes, start + headStart, path);
    const line = {
      head,
      headOffset: start + headStart,
      headLength: headBytes.length,
      headLineSha256: createHash('sha256')
        .update(buffer.subarray(headStart, headEnd + 1))
        .digest('hex'),
    };
    if (!torn) return line;
    const fragmentBytes = buffer.subarray(headEnd + 1);
    const fragment: TailFragment = {
      offset: start + headEnd + 1,
      length: fragmentBytes.length,
      sha256: createHash('sha256').update(fragmentBytes).digest('hex'),
    };
    const event = completeEvent(fragmentBytes, head);
    return { ...line, fragment: event === undefined ? fragment : { ...fragment, event } };
  }
}

function parseHead(bytes: Buffer, byteOffset: number, path: string): AuditEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw chainError(path, {
      code: 'E_PARSE',
      reason: 'the last complete line is not valid JSON',
      byteOffset,
    });
  }
  const event = checkEventShape(parsed);
  if (isShapeProblem(event)) {
    throw chainError(path, {
      code: event.code,
      reason: event.reason,
      byteOffset,
      ...(event.seq === undefined ? {} : { seq: event.seq }),
    });
  }
  let hash: string;
  try {
    hash = serializeEvent(event).hash;
  } catch {
    throw chainError(path, {
      code: 'E_FIELD',
      reason: 'the last event holds a value events may not carry',
      byteOffset,
      seq: event.seq,
    });
  }
  if (hash !== event.hash) {
    throw chainError(path, {
      code: 'E_HASH',
      reason: 'the last event was edited: its stored hash does not match its content',
      byteOffset,
      seq: event.seq,
    });
  }
  return event;
}

/** The fragment as an event, when it is exactly the next event missing only its newline. */
function completeEvent(bytes: Buffer, head: AuditEvent): AuditEvent | undefined {
  try {
    const text = bytes.toString('utf8');
    const event = checkEventShape(JSON.parse(text));
    if (isShapeProblem(event)) return undefined;
    const serialized = serializeEvent(event);
    const continues = event.seq === head.seq + 1 && event.prev === head.hash && event.type !== 'log-create';
    return continues && serialized.hash === event.hash && serialized.line === text ? event : undefined;
  } catch {
    return undefined;
  }
}

function readFully(descriptor: number, buffer: Buffer, position: number): void {
  let done = 0;
  while (done < buffer.length) {
    const read = readSync(descriptor, buffer, done, buffer.length - done, position + done);
    if (read === 0) break;
    done += read;
  }
}

function chainError(path: string, failure: AuditVerifyFailure): AuditChainError {
  return new AuditChainError({ path, failure });
}

/**
 * SHA-256 of the `length` bytes at `offset`, or `undefined` when the file holds fewer: lets a writer
 * check, with one small read, that the line it last saw is still where it saw it.
 */
export function sha256At(descriptor: number, offset: number, length: number): string | undefined {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const read = readSync(descriptor, buffer, done, length - done, offset + done);
    if (read === 0) return undefined;
    done += read;
  }
  return createHash('sha256').update(buffer).digest('hex');
}
