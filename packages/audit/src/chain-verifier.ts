import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { type AuditEvent, LOG_RECOVER_TYPE } from './audit-event.js';
import type { AuditVerifyFailure, AuditVerifyResult, AuditVerifyWarning } from './audit-verify-result.js';
import { matchAscii } from './canonical-bytes.js';
import { eventLineFields, HASH_FIELD_PREFIX_BYTES, scanEventLine } from './canonical-event-line.js';
import { checkParsedLine } from './check-parsed-line.js';
import type { SignedCheckpoint } from './checkpoint.js';
import { hashCanonicalLine } from './event-hash.js';
import { isShapeProblem } from './event-shape.js';

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
 * Most lines take a fast path: a line in exactly the form snodo writes is checked on its bytes (one hash of
 * the line without its hash field, no parse), and only the rest — the genesis, `log-recover` events, and any
 * line that fails or that the fast check cannot vouch for — is parsed, re-serialised and compared, which
 * names what is wrong. Both paths accept the same lines (`canonical-event-line.test.ts`).
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
  /** Byte offset and length of the last line seen (-1: none), for a `log-recover` that completes it. */
  #previousOffset = -1;
  #previousLength = 0;
  #pending: PendingFragment | undefined;
  #failure: AuditVerifyFailure | undefined;
  readonly #resumed: boolean;
  readonly #fields = eventLineFields();
  /** The event of the line just accepted, when the slow path parsed it. */
  #parsed: AuditEvent | undefined;

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
   * Checks one line. Returns true when it is accepted into the chain, false when it is not (a failure, or
   * a line held back as a possible torn write); `acceptedEvent` then gives the accepted event.
   */
  push(bytes: Buffer, byteOffset: number, terminated: boolean): boolean {
    if (this.#failure !== undefined) return false;
    this.#lines++;
    this.#parsed = undefined;
    const hash = this.#pending === undefined ? this.#fastCheck(bytes) : undefined;
    if (hash === undefined) return this.#pushParsed(bytes, byteOffset, terminated);
    const mismatch = this.#checkAnchoredHash(this.#fields.seq, hash, this.#lines, byteOffset);
    if (mismatch !== undefined) {
      this.#failure = mismatch;
      return false;
    }
    this.#accept(this.#fields.seq, hash, bytes, byteOffset, terminated);
    return true;
  }

  /**
   * The event of the line `push` just accepted. Parsed on demand: verifying needs only the chain's fields,
   * readers of events pay for the parse. Call it with the same bytes, during the same line.
   */
  acceptedEvent(bytes: Buffer): AuditEvent {
    return this.#parsed ?? (JSON.parse(bytes.toString('utf8')) as AuditEvent);
  }

  /**
   * The line's hash when it is the next ordinary event in exactly the form snodo writes, with its hash and
   * link right; `undefined` sends it to the parsing check.
   */
  #fastCheck(bytes: Buffer): string | undefined {
    const fields = this.#fields;
    if (this.#headSeq === undefined || this.#headHash === undefined) return undefined;
    if (!isUtf8(bytes) || !scanEventLine(bytes, fields)) return undefined;
    if (fields.kind !== 'event' || fields.seq !== this.#headSeq + 1) return undefined;
    if (matchAscii(bytes, fields.prev, this.#headHash) < 0) return undefined;
    const hash = hashCanonicalLine(bytes, fields.hashField);
    return matchAscii(bytes, fields.hashField + HASH_FIELD_PREFIX_BYTES, hash) < 0 ? undefined : hash;
  }

  /** The parsing check: every line the fast path did not accept, and the one that names a failure. */
  #pushParsed(bytes: Buffer, byteOffset: number, terminated: boolean): boolean {
    const line = this.#lines;
    const expectedSeq = this.#headSeq === undefined ? 0 : this.#headSeq + 1;
    const checked = checkParsedLine(
      bytes,
      this.#headSeq === undefined || this.#headHash === undefined
        ? undefined
        : { seq: this.#headSeq, hash: this.#headHash },
    );
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
      this.#previousOffset = byteOffset;
      this.#previousLength = bytes.length;
      return false;
    }
    const event = checked;
    if (event.type === LOG_RECOVER_TYPE) {
      const problem = this.#checkRecover(event, line, byteOffset);
      if (problem !== undefined) {
        this.#failure = problem;
        return false;
      }
    } else if (this.#pending !== undefined) {
      this.#failure = this.#pending.failure;
      return false;
    }
    const mismatch =
      this.#checkLogIds(event, line, byteOffset) ??
      this.#checkAnchoredHash(event.seq, event.hash, line, byteOffset);
    if (mismatch !== undefined) {
      this.#failure = mismatch;
      return false;
    }
    if (event.seq === 0) this.#logId = (event.data as { log_id: string }).log_id;
    this.#parsed = event;
    this.#accept(event.seq, event.hash, bytes, byteOffset, terminated);
    return true;
  }

  /** Makes an accepted line the head of the chain. */
  #accept(seq: number, hash: string, bytes: Buffer, byteOffset: number, terminated: boolean): void {
    if (!terminated) {
      this.#warn(
        this.#lines,
        byteOffset,
        'the last line is a complete event without its newline; the next append completes it',
      );
    }
    this.#headSeq = seq;
    this.#headHash = hash;
    this.#events++;
    this.#previousOffset = byteOffset;
    this.#previousLength = bytes.length;
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
    if (
      !reference.completed ||
      this.#previousOffset < 0 ||
      reference.offset !== this.#previousOffset ||
      reference.length !== this.#previousLength
    ) {
      return fail('the log-recover event names a fragment that is not the line before it');
    }
    this.#warn(
      line - 1,
      this.#previousOffset,
      `a line written without its newline was completed by a log-recover event (seq ${event.seq})`,
    );
    return undefined;
  }

  /** At genesis: every checkpoint must be for the log id it names. */
  #checkLogIds(event: AuditEvent, line: number, byteOffset: number): AuditVerifyFailure | undefined {
    if (event.seq !== 0) return undefined;
    const logId = (event.data as { log_id: string }).log_id;
    const index = this.#checkpoints.findIndex((checkpoint) => checkpoint.log_id !== logId);
    if (index === -1) return undefined;
    return {
      code: 'E_LOG_ID',
      reason: `checkpoint ${index} is for log ${this.#checkpoints[index]!.log_id}, this log is ${logId}`,
      line,
      seq: 0,
      byteOffset,
      checkpoint: index,
    };
  }

  /** Every checkpoint anchored at `seq` must carry this event's hash. */
  #checkAnchoredHash(
    seq: number,
    hash: string,
    line: number,
    byteOffset: number,
  ): AuditVerifyFailure | undefined {
    if (this.#checkpointsBySeq.size === 0) return undefined;
    for (const { index, checkpoint } of this.#checkpointsBySeq.get(seq) ?? []) {
      if (checkpoint.head_hash !== hash) {
        return {
          code: 'E_CKPT_MISMATCH',
          reason:
            `checkpoint ${index} (signed ${checkpoint.ts}) anchors seq ${seq} at hash ${checkpoint.head_hash}, ` +
            `the log has ${hash}: the anchored events were rewritten`,
          line,
          seq,
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
