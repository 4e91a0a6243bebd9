import { createHash } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { AuditLogRewrittenError } from './errors/audit-log-rewritten-error.js';
import { type LogTail, readLogTail, sha256At } from './read-log-tail.js';

/** The last event an `AuditLog` handle wrote or read, and where its line (newline included) lies. */
export interface SeenLine {
  readonly seq: number;
  readonly offset: number;
  /** Bytes of the line, its newline included. */
  readonly length: number;
  /** SHA-256 of those bytes. */
  readonly sha256: string;
}

/** The head of a freshly read tail, as a seen line. */
export function seenHead(tail: LogTail): SeenLine {
  return {
    seq: tail.head.seq,
    offset: tail.headOffset,
    length: tail.headLength + 1,
    sha256: tail.headLineSha256,
  };
}

/** The line just appended, which ends at the end of the file (the caller holds the log's lock). */
export function seenLineAtEnd(descriptor: number, seq: number, line: string): SeenLine {
  const bytes = Buffer.from(`${line}\n`, 'utf8');
  return {
    seq,
    offset: fstatSync(descriptor).size - bytes.length,
    length: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/**
 * Throws `AuditLogRewrittenError` unless the file still holds `seen` where it was: one read of one line.
 * Appends only ever add after it, so anything else means the tail was cut or the file rewritten in place.
 */
export function checkSeenLine(descriptor: number, path: string, seen: SeenLine): void {
  if (sha256At(descriptor, seen.offset, seen.length) === seen.sha256) return;
  const shorter = fstatSync(descriptor).size < seen.offset + seen.length;
  let currentSeq: number | undefined;
  try {
    currentSeq = readLogTail(descriptor, path).head.seq;
  } catch (error) {
    // An edited last line is a broken chain (`AuditChainError`, naming line and seq); a cut is a loss.
    if (!shorter) throw error;
  }
  const truncated = currentSeq === undefined || currentSeq < seen.seq;
  throw new AuditLogRewrittenError({
    path,
    kind: truncated ? 'truncated' : 'rewritten',
    fromSeq: truncated ? (currentSeq ?? -1) + 1 : seen.seq,
    toSeq: seen.seq,
  });
}
