import { closeSync, fstatSync, fsyncSync, statSync, writeSync } from 'node:fs';
import type { AuditData, AuditEvent, AuditEventBody, AuditEventInput } from './audit-event.js';
import { LOG_CREATE_TYPE, LOG_RECOVER_TYPE } from './audit-event.js';
import type { AuditVerifyResult } from './audit-verify-result.js';
import { type SignedCheckpoint, signCheckpoint } from './checkpoint.js';
import { appendCheckpoint } from './checkpoint-store.js';
import { AuditChainError } from './errors/audit-chain-error.js';
import { AuditEventError } from './errors/audit-event-error.js';
import { AuditLogRewrittenError } from './errors/audit-log-rewritten-error.js';
import { AuditWriteError } from './errors/audit-write-error.js';
import type { AuditError } from './errors.js';
import { serializeEvent } from './event-hash.js';
import { eventTypePattern } from './event-shape.js';
import { type LockFileOptions, withLockFile } from './lock-file.js';
import { prepareEventData } from './prepare-event-data.js';
import { type LogTail, readLogTail } from './read-log-tail.js';
import type { Redactor } from './redactor.js';
import { checkSeenLine, type SeenLine, seenHead, seenLineAtEnd } from './seen-line.js';
import type { SigningKey } from './signing-key.js';

/** The head of the log: its last event and the number of events. */
export interface AuditHead {
  /** `seq` of the last event. */
  readonly seq: number;
  /** `hash` of the last event. */
  readonly hash: string;
  /** Number of events (`seq + 1`): the `size` a checkpoint states. */
  readonly size: number;
}

interface PreparedEvent {
  readonly type: string;
  readonly actor: string;
  readonly job: string | undefined;
  readonly data: AuditData;
}

/**
 * An open audit log. Appends are serialised within the process (in call order) and across processes (a
 * lock file, `<log>.lock`); each reads the head from the file's tail, re-checks its hash, and writes the
 * new line with one `write` on an `O_APPEND` descriptor. Obtain one with `openAuditLog`.
 *
 * The handle remembers the last line it wrote or read and checks, with one small read per append, that
 * the line is still there: a log whose tail was cut, or rewritten in place, is refused from then on
 * (`AuditLogRewrittenError`) instead of being continued from the shorter tail.
 */
export class AuditLog {
  /** The log file. */
  readonly path: string;
  /** The log id from the genesis event (128-bit random hex). */
  readonly logId: string;
  /** The verification done at open. Its warnings list torn lines found then. */
  readonly verification: AuditVerifyResult;
  readonly #descriptor: number;
  readonly #identity: string;
  readonly #redactor: Redactor;
  readonly #actor: string;
  readonly #maxLineBytes: number;
  readonly #lockPath: string;
  readonly #lockOptions: LockFileOptions;
  #queue: Promise<unknown> = Promise.resolve();
  #broken: AuditError | undefined;
  #closed = false;
  #seen: SeenLine | undefined;

  /** @internal Use `openAuditLog`. */
  constructor(
    path: string,
    descriptor: number,
    logId: string,
    verification: AuditVerifyResult,
    redactor: Redactor,
    settings: { actor: string; maxLineBytes: number; lock: LockFileOptions },
  ) {
    this.path = path;
    this.logId = logId;
    this.verification = verification;
    this.#descriptor = descriptor;
    const stats = fstatSync(descriptor);
    this.#identity = `${stats.dev}:${stats.ino}`;
    this.#redactor = redactor;
    this.#actor = settings.actor;
    this.#maxLineBytes = settings.maxLineBytes;
    this.#lockPath = `${path}.lock`;
    this.#lockOptions = settings.lock;
  }

  /**
   * Appends one event and returns it as written (with `seq`, `ts`, `prev`, `hash`). The input is checked
   * and redacted first (`AuditEventError` for floats, bad type names, oversized lines). Does not fsync:
   * call `sync()` at job boundaries and before merges.
   */
  append(input: AuditEventInput): Promise<AuditEvent> {
    let prepared: PreparedEvent;
    try {
      prepared = this.#prepare(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#enqueue(() => this.#locked(() => this.#write(this.#recoverTail(), prepared)));
  }

  /** Registers a secret value to mask in every later event. */
  addSecret(secret: string): void {
    this.#redactor.addSecret(secret);
  }

  /** Flushes the log to disk (`fsync`). snodo calls it at job start and end and before every merge. */
  sync(): Promise<void> {
    return this.#enqueue(() => {
      fsyncSync(this.#descriptor);
    });
  }

  /**
   * The current head, read from the file under the lock. With `recover`, a torn last line is first
   * followed by its `log-recover` event (what `openAuditLog` does).
   */
  head(options: { recover?: boolean } = {}): Promise<AuditHead> {
    return this.#enqueue(() =>
      this.#locked(() => {
        const head = options.recover === true ? this.#recoverTail() : this.#readTail().head;
        return { seq: head.seq, hash: head.hash, size: head.seq + 1 };
      }),
    );
  }

  /**
   * Fsyncs the log and signs a checkpoint over its current head with `key`; with `store`, also appends
   * it to that checkpoint store file. Anchor the result outside the log (a commit trailer,
   * `refs/snodo/audit`) so a cut-off tail or a rewrite is caught later.
   */
  checkpoint(key: SigningKey, options: { store?: string } = {}): Promise<SignedCheckpoint> {
    return this.#enqueue(() =>
      this.#locked(() => {
        fsyncSync(this.#descriptor);
        const head = this.#readTail().head;
        const checkpoint = signCheckpoint(
          { logId: this.logId, size: head.seq + 1, headHash: head.hash },
          key,
        );
        if (options.store !== undefined) appendCheckpoint(options.store, checkpoint);
        return checkpoint;
      }),
    );
  }

  /** Fsyncs and closes the log (also after a refused append); later calls fail with `AuditWriteError`. */
  close(): Promise<void> {
    return this.#enqueue(() => {
      this.#closed = true;
      try {
        fsyncSync(this.#descriptor);
      } finally {
        closeSync(this.#descriptor);
      }
    }, true);
  }

  #prepare(input: AuditEventInput): PreparedEvent {
    const type = input.type;
    if (typeof type !== 'string' || !eventTypePattern.test(type)) {
      throw new AuditEventError({
        field: 'type',
        problem: `is ${JSON.stringify(type)}, not a kebab-case name`,
        fix: 'Name events noun-then-verb in kebab-case, e.g. job-start or gate-verdict.',
      });
    }
    if (type === LOG_CREATE_TYPE || type === LOG_RECOVER_TYPE) {
      throw new AuditEventError({
        field: 'type',
        problem: `is ${type}, which only the audit log itself writes`,
        fix: 'Choose another event type.',
      });
    }
    const actor = input.actor ?? this.#actor;
    if (typeof actor !== 'string' || actor === '') {
      throw new AuditEventError({ field: 'actor', problem: 'is empty', fix: 'Name who caused the event.' });
    }
    const job = input.job;
    if (job !== undefined && (typeof job !== 'string' || job === '')) {
      throw new AuditEventError({
        field: 'job',
        problem: 'is empty',
        fix: 'Pass the job id or omit the field.',
      });
    }
    return {
      type,
      actor: this.#redactor.redactString(actor),
      job: job === undefined ? undefined : this.#redactor.redactString(job),
      data: prepareEventData(input.data, this.#redactor),
    };
  }

  /** Runs `work` after every earlier call of this handle, so appends land in call order. */
  #enqueue<T>(work: () => T | Promise<T>, evenIfBroken = false): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.#closed) {
        throw new AuditWriteError({ path: this.path, problem: 'the log was closed', fix: 'Open it again.' });
      }
      if (this.#broken !== undefined && !evenIfBroken) throw this.#broken;
      return work();
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #locked<T>(section: () => T): Promise<T> {
    return withLockFile(this.#lockPath, this.#lockOptions, () => {
      try {
        return section();
      } catch (error) {
        // A chain that stopped verifying, or a replaced file, stays refused until reopened and inspected.
        if (
          AuditChainError.isInstance(error) ||
          AuditLogRewrittenError.isInstance(error) ||
          (AuditWriteError.isInstance(error) && error.sticky)
        ) {
          this.#broken = error;
        }
        throw error;
      }
    });
  }

  #readTail(): LogTail {
    let pathIdentity: string;
    try {
      const stats = statSync(this.path);
      pathIdentity = `${stats.dev}:${stats.ino}`;
    } catch {
      pathIdentity = 'missing';
    }
    if (pathIdentity !== this.#identity) {
      throw new AuditWriteError({
        path: this.path,
        problem: 'the file was removed or replaced since it was opened',
        fix: 'Find out what replaced it (`snodo audit verify`), then open the log again.',
        sticky: true,
      });
    }
    if (this.#seen !== undefined) checkSeenLine(this.#descriptor, this.path, this.#seen);
    const tail = readLogTail(this.#descriptor, this.path);
    this.#seen = seenHead(tail);
    return tail;
  }

  /**
   * Reads the tail; when it ends in a torn line, appends a newline and a `log-recover` event naming the
   * fragment (offset, length, sha256) in one write, never gluing onto or truncating the fragment. A
   * fragment that is the complete next event minus its newline is adopted (`completed: true`).
   */
  #recoverTail(): AuditEvent {
    const tail = this.#readTail();
    const fragment = tail.fragment;
    if (fragment === undefined) return tail.head;
    const previous = fragment.event ?? tail.head;
    const body: AuditEventBody = {
      v: 1,
      seq: previous.seq + 1,
      ts: new Date().toISOString(),
      type: LOG_RECOVER_TYPE,
      actor: this.#actor,
      data: {
        fragment: { offset: fragment.offset, length: fragment.length, sha256: fragment.sha256 },
        completed: fragment.event !== undefined,
      },
      prev: previous.hash,
    };
    const { hash, line } = serializeEvent(body);
    this.#writeBytes(Buffer.from(`\n${line}\n`, 'utf8'));
    this.#seen = seenLineAtEnd(this.#descriptor, body.seq, line);
    return { ...body, hash };
  }

  #write(head: AuditEvent, prepared: PreparedEvent): AuditEvent {
    const body: AuditEventBody = {
      v: 1,
      seq: head.seq + 1,
      ts: new Date().toISOString(),
      type: prepared.type,
      ...(prepared.job === undefined ? {} : { job: prepared.job }),
      actor: prepared.actor,
      data: prepared.data,
      prev: head.hash,
    };
    const { hash, line } = serializeEvent(body);
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    if (bytes.length > this.#maxLineBytes) {
      throw new AuditEventError({
        field: 'event',
        problem: `is ${bytes.length} bytes as a line, over the ${this.#maxLineBytes}-byte cap`,
        fix: 'Keep large outputs out of events: store them as files and log their digest.',
      });
    }
    this.#writeBytes(bytes);
    this.#seen = seenLineAtEnd(this.#descriptor, body.seq, line);
    return { ...body, hash };
  }

  /** One `write` of whole lines; a short write leaves a torn line that the next writer recovers. */
  #writeBytes(bytes: Buffer): void {
    let written: number;
    try {
      written = writeSync(this.#descriptor, bytes);
    } catch (cause) {
      throw new AuditWriteError({
        path: this.path,
        problem: (cause as Error).message,
        fix: 'Check free disk space and permissions, then run again.',
        cause,
      });
    }
    if (written !== bytes.length) {
      throw new AuditWriteError({
        path: this.path,
        problem: `only ${written} of ${bytes.length} bytes were written`,
        fix: 'Check free disk space; the next append records a log-recover event after the torn line.',
      });
    }
  }
}
