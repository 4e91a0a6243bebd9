import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { CoderV1Event } from '../v1/coder-v1-event.js';
import type { Secret } from './secret-redactor.js';
import { SecretRedactor } from './secret-redactor.js';
import { TailBuffer } from './tail-buffer.js';

/** The two output streams of a coder process. */
export type OutputStream = 'stdout' | 'stderr';

/** How an `OutputRecorder` is set up. */
export interface OutputRecorderOptions {
  /** The transcript file; output is appended. Its directory is created when missing. */
  readonly transcriptPath: string;
  /** Bytes of output recorded per attempt before the truncation marker. */
  readonly capBytes: number;
  /** Values removed from everything recorded, kept or emitted. */
  readonly secrets: readonly Secret[];
  /** Where `coder-output` events go (the request's `emit`). */
  readonly emit: (event: CoderV1Event) => void;
  /** Characters of stdout kept in memory for `parseOutput`. */
  readonly stdoutTailCharacters: number;
  /** Characters of stderr kept in memory for `parseOutput` and error messages. */
  readonly stderrTailCharacters: number;
}

/**
 * Takes a coder's raw output and does everything that must happen to it, in one place so no path skips
 * the redaction: decode UTF-8 across chunk boundaries, redact secrets, append to the transcript up to the
 * cap (then one marker line and nothing more), keep bounded tails in memory, and emit `coder-output`
 * events. Output past the cap is still read and dropped, so the coder never blocks on a full pipe.
 */
export class OutputRecorder {
  private readonly descriptor: number;
  private readonly decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  private readonly redactors: Record<OutputStream, SecretRedactor>;
  private readonly tails: Record<OutputStream, TailBuffer>;
  private readonly redactor: SecretRedactor;
  private outputBytes = 0;
  private truncated = false;
  private closed = false;

  constructor(private readonly options: OutputRecorderOptions) {
    mkdirSync(path.dirname(options.transcriptPath), { recursive: true });
    this.descriptor = openSync(options.transcriptPath, 'a', 0o600);
    this.redactor = new SecretRedactor(options.secrets);
    this.redactors = {
      stdout: new SecretRedactor(options.secrets),
      stderr: new SecretRedactor(options.secrets),
    };
    this.tails = {
      stdout: new TailBuffer(options.stdoutTailCharacters),
      stderr: new TailBuffer(options.stderrTailCharacters),
    };
  }

  /** Redacts a whole text with the same secrets (for argv and headers). */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** Writes a line of snodo's own (header, footer) to the transcript; not counted against the cap. */
  writeLine(line: string): void {
    if (!this.closed) writeSync(this.descriptor, `${this.redactor.redact(line)}\n`);
  }

  /** Takes the next raw chunk of one stream. */
  push(stream: OutputStream, chunk: Buffer): void {
    const text = this.redactors[stream].push(this.decoders[stream].write(chunk));
    if (text !== '') this.deliver(stream, text);
  }

  /**
   * Flushes what decoders and redactors hold back, writes `footer` (snodo's own closing line) and closes
   * the transcript. Safe to call twice.
   */
  finish(footer?: string): void {
    if (this.closed) return;
    for (const stream of ['stdout', 'stderr'] as const) {
      const text = this.redactors[stream].push(this.decoders[stream].end()) + this.redactors[stream].flush();
      if (text !== '') this.deliver(stream, text);
    }
    if (footer !== undefined) writeSync(this.descriptor, `${this.redactor.redact(footer)}\n`);
    this.closed = true;
    closeSync(this.descriptor);
  }

  /** The end of stdout, redacted. */
  get stdoutTail(): string {
    return this.tails.stdout.toString();
  }

  /** The last `limit` characters of stderr, redacted. */
  stderrTail(limit?: number): string {
    return this.tails.stderr.toString(limit);
  }

  /** `true` once the cap was hit. */
  get wasTruncated(): boolean {
    return this.truncated;
  }

  private deliver(stream: OutputStream, text: string): void {
    this.tails[stream].append(text);
    if (this.truncated || this.closed) return;
    const bytes = Buffer.from(text, 'utf8');
    const room = this.options.capBytes - this.outputBytes;
    if (bytes.length <= room) {
      writeSync(this.descriptor, bytes);
      this.outputBytes += bytes.length;
      this.safeEmit({ type: 'coder-output', stream, text });
      return;
    }
    if (room > 0) writeSync(this.descriptor, bytes.subarray(0, room));
    this.outputBytes = this.options.capBytes;
    this.truncated = true;
    writeSync(
      this.descriptor,
      `\n[snodo: transcript truncated: output beyond ${this.options.capBytes} bytes was not recorded]\n`,
    );
    this.safeEmit({
      type: 'coder-progress',
      message: `output beyond ${this.options.capBytes} bytes is not recorded or shown`,
    });
  }

  private safeEmit(event: CoderV1Event): void {
    try {
      this.options.emit(event);
    } catch {
      // A listener that throws must not break supervision of the coder's process.
    }
  }
}
