import { fstatSync, readSync } from 'node:fs';
import type { AuditEvent } from './audit-event.js';
import { serializeEvent } from './event-hash.js';
import { checkEventShape, isShapeProblem } from './event-shape.js';
import { MAX_LINE_BYTES } from './line-scanner.js';

/** One event found by `locateEvent`, with where its line lies in the file. */
export interface LocatedEvent {
  /** The event; its hash was recomputed from the line and matches, and the line is canonical. */
  readonly event: AuditEvent;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Byte offset just past the line's newline: where the next line starts. */
  readonly end: number;
}

const probeBytes = 64 * 1024;

/**
 * Finds the line holding event `seq` by bisecting the file's byte range: about log2(size / 64 KiB) small
 * reads, so a checkpoint's event is found as fast in a 1 GB log as in a 1 MB one. Relies on seq growing
 * along the file, which holds for every log snodo writes; a log where it does not is one a full
 * verification refuses, and `undefined` here sends the caller to that full verification. Lines that do not
 * parse (a torn fragment) are stepped over. Returns `undefined` when no valid, canonical line has that seq.
 */
export function locateEvent(descriptor: number, seq: number): LocatedEvent | undefined {
  const size = fstatSync(descriptor).size;
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    const line = firstEventFrom(descriptor, middle, size);
    if (line === undefined || line.event.seq > seq) {
      // Everything from `middle` on is past the event (or holds no event at all): look before it.
      high = middle;
    } else if (line.event.seq < seq) {
      low = line.end;
    } else {
      return checked(line);
    }
  }
  // The bisection narrows to a line start; the event may be the line starting exactly at `low`.
  const last = low < size ? firstEventFrom(descriptor, low, size) : undefined;
  return last?.event.seq === seq ? checked(last) : undefined;
}

interface RawLine {
  readonly event: AuditEvent;
  readonly text: string;
  readonly offset: number;
  readonly end: number;
}

/** The first parseable event whose line starts at or after `position` (a line start, or inside a line). */
function firstEventFrom(descriptor: number, position: number, size: number): RawLine | undefined {
  let start = position === 0 ? 0 : nextLineStart(descriptor, position - 1, size);
  while (start !== undefined && start < size) {
    const line = readLine(descriptor, start, size);
    if (line === undefined) return undefined;
    const event = parseEvent(line.text);
    if (event !== undefined) return { event, text: line.text, offset: start, end: line.end };
    start = line.end;
  }
  return undefined;
}

/** Offset just past the first newline at or after `position`; `undefined` when there is none. */
function nextLineStart(descriptor: number, position: number, size: number): number | undefined {
  const buffer = Buffer.allocUnsafe(probeBytes);
  for (let at = position; at < size; at += probeBytes) {
    const read = readSync(descriptor, buffer, 0, probeBytes, at);
    if (read === 0) return undefined;
    const newline = buffer.subarray(0, read).indexOf(10);
    if (newline !== -1) return at + newline + 1;
  }
  return undefined;
}

/** The newline-terminated line starting at `start`; `undefined` for an unterminated or overlong one. */
function readLine(
  descriptor: number,
  start: number,
  size: number,
): { text: string; end: number } | undefined {
  for (let window = probeBytes; ; window *= 4) {
    const length = Math.min(window, size - start, MAX_LINE_BYTES + 1);
    const buffer = Buffer.allocUnsafe(length);
    const read = readSync(descriptor, buffer, 0, length, start);
    const newline = buffer.subarray(0, read).indexOf(10);
    if (newline !== -1) {
      return { text: buffer.subarray(0, newline).toString('utf8'), end: start + newline + 1 };
    }
    if (length < window || length > MAX_LINE_BYTES) return undefined;
  }
}

function parseEvent(text: string): AuditEvent | undefined {
  try {
    const event = checkEventShape(JSON.parse(text));
    return isShapeProblem(event) ? undefined : event;
  } catch {
    return undefined;
  }
}

/** The line as a located event when its hash and canonical form hold, else `undefined`. */
function checked(line: RawLine): LocatedEvent | undefined {
  try {
    const serialized = serializeEvent(line.event);
    if (serialized.hash !== line.event.hash || serialized.line !== line.text) return undefined;
  } catch {
    return undefined;
  }
  return { event: line.event, offset: line.offset, end: line.end };
}
