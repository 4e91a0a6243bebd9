import { createHash } from 'node:crypto';
import { type AuditEvent, LOG_CREATE_TYPE, LOG_RECOVER_TYPE } from './audit-event.js';
import type { AuditVerifyFailure, AuditVerifyResult, AuditVerifyWarning } from './audit-verify-result.js';
import type { SignedCheckpoint } from './checkpoint.js';
import { AuditEventError } from './errors/audit-event-error.js';
import { type SerializedEvent, serializeEvent } from './event-hash.js';
import { checkEventShape, checkGenesis, isShapeProblem, type ShapeProblem } from './event-shape.js';

/** A line that failed, held back until the next line shows whether it was a recovered torn write. */
interface PendingFragment {
  readonly failure: AuditVerifyFailure;
  readonly byteOffset: number;
  readonly length: number;
  readonly sha256: string;
}

/** The fragment a `log-recover` event names. */
interface FragmentReference {
  readonly offset: number;
  readonly length: number;
  readonly sha256: string;
  readonly completed: boolean;
}

/**
 * The verification state machine, fed one line at a time (`push`) so that it runs in constant memory over
 * a streamed file. Shared by `verifyAuditLog` (which wants the verdict) and `readAuditEvents` (which wants
 * the accepted events and throws at the first failure).
 *
 * Torn writes: a line that fails is held back. It is accepted — as a `W_TORN` warning — only when the very
 * next line is a valid `log-recover` event naming that line's byte offset, length and SHA-256 and chaining
 * from the event before it. Anything else reports the held-back line's own failure.
 */
export class ChainVerifier {
  readonly #checkpointsBySeq = new Map<number, { index: number; checkpoint: SignedCheckpoint }[]>();
  readonly #checkpoints: readonly SignedCheckpoint[];
  readonly #warnings: AuditVerifyWarning[] = [];
  #lines = 0;
  #events = 0;
  #logId: string | undefined;
  #headSeq: number | undefined;
  #headHash: string | undefined;
  #previousLine: { offset: number; length: number } | undefined;
  #pending: PendingFragment | undefined;
  #failure: AuditVerifyFailure | undefined;
  readonly #resumed: boolean;

  /**
   * `resume` continues a chain already verified up to that head (a snapshot's), so only the lines after
   * it are read: how `verifyAuditLogGrowth` checks what was appended without re-reading the whole log.
   */
  constructor(
    checkpoints: readonly SignedCheckpoint[] = [],
    resume?: { readonly seq: number; readonly hash: string; readonly logId: string },
  ) {
    this.#checkpoints = checkpoints;
    this.#resumed = resume !== undefined;
    if (resume !== undefined) {
      this.#headSeq = resume.seq;
      this.#headHash = resume.hash;
      this.#logId = resume.logId;
    }
    checkpoints.forEach((checkpoint, index) => {
      const seq = checkpoint.size - 1;
      const list = this.#checkpointsBySeq.get(seq) ?? [];
      list.push({ index, checkpoint });
      this.#checkpointsBySeq.set(seq, list);
    });
  }

  /** The first failure so far, if any; once set, further lines are ignored. */
  get failure(): AuditVerifyFailure | undefined {
    return this.#failure;
  }

  /** Number of lines seen so far. */
  get lines(): number {
    return this.#lines;
  }

  /**
   * Checks one line. Returns the event when it is accepted into the chain, `undefined` when it is not
   * (a failure, or a line held back as a possible torn write).
   */
  push(bytes: Buffer, byteOffset: number, terminated: boolean): AuditEvent | undefined {
    if (this.#failure !== undefined) return undefined;
    this.#lines++;
    const line = this.#lines;
    const expectedSeq = this.#headSeq === undefined ? 0 : this.#headSeq + 1;
    const checked = this.#check(bytes, expectedSeq);
    if (isShapeProblem(checked)) {
      const failure: AuditVerifyFailure = {
        code: checked.code,
        reason: checked.reason,
        line,
        seq: checked.seq ?? expectedSeq,
        byteOffset,
      };
      if (this.#pending !== undefined) {
        this.#failure = this.#pending.failure;
      } else if (!terminated) {
        // A last line without newline: a write in progress, or a crash. The next writer recovers it.
        this.#warn(
          line,
          byteOffset,
          'the last line is incomplete (a crash or a write in progress); the next append records a log-recover event after it',
        );
      } else {
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        this.#pending = { failure, byteOffset, length: bytes.length, sha256 };
      }
      this.#previousLine = { offset: byteOffset, length: bytes.length };
      return undefined;
    }
    const event = checked;
    if (event.type === LOG_RECOVER_TYPE) {
      const problem = this.#checkRecover(event, line, byteOffset);
      if (problem !== undefined) {
        this.#failure = problem;
        return undefined;
      }
    } else if (this.#pending !== undefined) {
      this.#failure = this.#pending.failure;
      return undefined;
    }
    const mismatch = this.#checkAnchors(event, line, byteOffset);
    if (mismatch !== undefined) {
      this.#failure = mismatch;
      return undefined;
    }
    if (!terminated) {
      this.#warn(
        line,
        byteOffset,
        'the last line is a complete event without its newline; the next append completes it',
      );
    }
    if (event.seq === 0) this.#logId = (event.data as { log_id: string }).log_id;
    this.#headSeq = event.seq;
    this.#headHash = event.hash;
    this.#events++;
    this.#previousLine = { offset: byteOffset, length: bytes.length };
    return event;
  }

  /** Ends the stream: settles a held-back line and checks that no checkpoint reaches past the end. */
  finish(overlongOffset?: number): void {
    if (this.#failure !== undefined) return;
    if (this.#pending !== undefined) {
      this.#failure = this.#pending.failure;
      return;
    }
    if (overlongOffset !== undefined) {
      this.#failure = {
        code: 'E_PARSE',
        reason: 'the line is longer than 4 MiB, more than any writer produces',
        line: this.#lines + 1,
        seq: this.#headSeq === undefined ? 0 : this.#headSeq + 1,
        byteOffset: overlongOffset,
      };
      return;
    }
    if (this.#events === 0 && !this.#resumed) {
      this.#failure = {
        code: 'E_GENESIS',
        reason: 'the log holds no events',
        line: 1,
        seq: 0,
        byteOffset: 0,
      };
      return;
    }
    let longest: { index: number; checkpoint: SignedCheckpoint } | undefined;
    this.#checkpoints.forEach((checkpoint, index) => {
      if (
        checkpoint.size > this.#events &&
        (longest === undefined || checkpoint.size > longest.checkpoint.size)
      ) {
        longest = { index, checkpoint };
      }
    });
    if (longest !== undefined) {
      this.#failure = {
        code: 'E_TRUNCATED',
        reason:
          `checkpoint ${longest.index} (signed ${longest.checkpoint.ts}) covers ${longest.checkpoint.size} events, ` +
          `the log holds only ${this.#events}: its tail was cut off`,
        line: this.#lines + 1,
        seq: this.#events,
        checkpoint: longest.index,
      };
    }
  }

  /** The verdict so far. */
  result(): AuditVerifyResult {
    const checkpointsVerified = this.#failure === undefined ? this.#checkpoints.length : 0;
    return {
      ok: this.#failure === undefined,
      events: this.#events,
      lines: this.#lines,
      ...(this.#logId === undefined ? {} : { logId: this.#logId }),
      ...(this.#headSeq === undefined ? {} : { headSeq: this.#headSeq }),
      ...(this.#headHash === undefined ? {} : { headHash: this.#headHash }),
      checkpointsVerified,
      warnings: [...this.#warnings],
      ...(this.#failure === undefined ? {} : { failure: this.#failure }),
    };
  }

  /** Parses and checks one line against the chain; returns the event or what is wrong with it. */
  #check(bytes: Buffer, expectedSeq: number): AuditEvent | ShapeProblem {
    const text = bytes.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { code: 'E_PARSE', reason: 'the line is not valid JSON' };
    }
    const event = checkEventShape(parsed);
    if (isShapeProblem(event)) return event;
    const seq = event.seq;
    let serialized: SerializedEvent;
    try {
      serialized = serializeEvent(event);
    } catch (error) {
      const problem = AuditEventError.isInstance(error) ? error.problem : String(error);
      return { code: 'E_FIELD', reason: `the event ${problem}`, seq };
    }
    if (serialized.hash !== event.hash) {
      return {
        code: 'E_HASH',
        reason: `the stored hash ${event.hash} is not the hash of the line's content (${serialized.hash}): the line was edited`,
        seq,
      };
    }
    if (serialized.line !== text) {
      // Same content, other bytes (whitespace, key order, escapes, a duplicate key): not written by snodo.
      return { code: 'E_PARSE', reason: 'the line is not in RFC 8785 canonical form', seq };
    }
    if (this.#headSeq === undefined) {
      const problem = checkGenesis(event);
      return problem === undefined ? event : { code: 'E_GENESIS', reason: problem, seq };
    }
    if (event.type === LOG_CREATE_TYPE) {
      return { code: 'E_GENESIS', reason: 'a second log-create event: another log was spliced in', seq };
    }
    if (seq !== expectedSeq) {
      return {
        code: 'E_SEQ',
        reason: `expected seq ${expectedSeq}, found ${seq}: a line was deleted, inserted or moved`,
        seq,
      };
    }
    if (event.prev !== this.#headHash) {
      return {
        code: 'E_LINK',
        reason: `prev does not match the hash of seq ${this.#headSeq}: the chain is broken here`,
        seq,
      };
    }
    return event;
  }

  /** A `log-recover` event must name the held-back line (or, when completing one, the previous line). */
  #checkRecover(event: AuditEvent, line: number, byteOffset: number): AuditVerifyFailure | undefined {
    const reference = fragmentReference(event);
    const fail = (reason: string): AuditVerifyFailure => ({
      code: 'E_FIELD',
      reason,
      line,
      seq: event.seq,
      byteOffset,
    });
    if (reference === undefined)
      return fail('the log-recover event does not name a fragment (offset, length, sha256)');
    const pending = this.#pending;
    if (pending !== undefined) {
      if (
        reference.completed ||
        reference.offset !== pending.byteOffset ||
        reference.length !== pending.length ||
        reference.sha256 !== pending.sha256
      ) {
        // The failing line is not the fragment this event recovered: report the line itself.
        return pending.failure;
      }
      this.#pending = undefined;
      this.#warn(
        pending.failure.line ?? line - 1,
        pending.byteOffset,
        `a torn line of ${pending.length} bytes (a crash mid-write) is followed by its log-recover event (seq ${event.seq})`,
      );
      return undefined;
    }
    const previous = this.#previousLine;
    if (
      !reference.completed ||
      previous === undefined ||
      reference.offset !== previous.offset ||
      reference.length !== previous.length
    ) {
      return fail('the log-recover event names a fragment that is not the line before it');
    }
    this.#warn(
      line - 1,
      previous.offset,
      `a line written without its newline was completed by a log-recover event (seq ${event.seq})`,
    );
    return undefined;
  }

  /** Checks every checkpoint anchored at this event's seq (and, at genesis, every checkpoint's log id). */
  #checkAnchors(event: AuditEvent, line: number, byteOffset: number): AuditVerifyFailure | undefined {
    if (event.seq === 0) {
      const logId = (event.data as { log_id: string }).log_id;
      const index = this.#checkpoints.findIndex((checkpoint) => checkpoint.log_id !== logId);
      if (index !== -1) {
        return {
          code: 'E_LOG_ID',
          reason: `checkpoint ${index} is for log ${this.#checkpoints[index]!.log_id}, this log is ${logId}`,
          line,
          seq: 0,
          byteOffset,
          checkpoint: index,
        };
      }
    }
    for (const { index, checkpoint } of this.#checkpointsBySeq.get(event.seq) ?? []) {
      if (checkpoint.head_hash !== event.hash) {
        return {
          code: 'E_CKPT_MISMATCH',
          reason:
            `checkpoint ${index} (signed ${checkpoint.ts}) anchors seq ${event.seq} at hash ${checkpoint.head_hash}, ` +
            `the log has ${event.hash}: the anchored events were rewritten`,
          line,
          seq: event.seq,
          byteOffset,
          checkpoint: index,
        };
      }
    }
    return undefined;
  }

  #warn(line: number, byteOffset: number, reason: string): void {
    this.#warnings.push({ code: 'W_TORN', reason, line, byteOffset });
  }
}

function fragmentReference(event: AuditEvent): FragmentReference | undefined {
  const fragment = (event.data as Record<string, unknown>).fragment as Record<string, unknown> | undefined;
  if (fragment === null || typeof fragment !== 'object') return undefined;
  const { offset, length, sha256 } = fragment;
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || typeof sha256 !== 'string')
    return undefined;
  return {
    offset: offset as number,
    length: length as number,
    sha256,
    completed: (event.data as Record<string, unknown>).completed === true,
  };
}
