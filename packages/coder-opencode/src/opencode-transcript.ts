import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { type CoderV1Event, SecretRedactor } from '@snodo/coder-sdk';

/** A value never written to the transcript or emitted, with the name shown in its place. */
export interface TranscriptSecret {
  readonly name: string;
  readonly value: string;
}

/** How a transcript is set up. */
export interface OpencodeTranscriptOptions {
  /** The job's transcript file; lines are appended. */
  readonly path: string;
  /** Bytes written per attempt before one truncation line; later lines are dropped. */
  readonly capBytes: number;
  /** Values to redact (the server password, the coder's credentials). */
  readonly secrets: readonly TranscriptSecret[];
  /** Where `coder-output` events go. */
  readonly emit: (event: CoderV1Event) => void;
}

/** Longest line kept whole; a longer one is split, so memory stays bounded whatever the server prints. */
const maximumLineCharacters = 16 * 1024;
/** Characters of server stderr kept for error messages. */
const stderrTailCharacters = 8 * 1024;

/**
 * The transcript of one attempt: what the server printed and what the session did, one line at a time,
 * with secrets redacted before anything is written or emitted. Writes stop at the cap with one line that
 * says the output was truncated; reading continues, so the server never blocks on a full pipe.
 */
export class OpencodeTranscript {
  private readonly descriptor: number;
  /** For whole texts (snodo's own lines, session text). */
  private readonly redactor: SecretRedactor;
  /** For the server's streams: a private key printed over several lines is dropped from BEGIN to END. */
  private readonly streamRedactors: Record<'stdout' | 'stderr', SecretRedactor>;
  private readonly decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  private readonly partial = { stdout: '', stderr: '' };
  private written = 0;
  private truncated = false;
  private closed = false;
  private stderr = '';

  constructor(private readonly options: OpencodeTranscriptOptions) {
    mkdirSync(path.dirname(options.path), { recursive: true });
    this.descriptor = openSync(options.path, 'a', 0o600);
    this.redactor = new SecretRedactor(options.secrets);
    this.streamRedactors = {
      stdout: new SecretRedactor(options.secrets),
      stderr: new SecretRedactor(options.secrets),
    };
  }

  /**
   * Removes every secret from `text`: the known values (raw, base64, URL-encoded) and what has the shape
   * of a key or a PEM private key block (the SDK's one redactor).
   */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** Writes one line of snodo's own (a header, an event summary); emitted as progress when `emit` is set. */
  note(line: string, emitAs?: 'stdout' | 'progress'): void {
    const safe = this.redact(line);
    this.write(`${safe}\n`);
    if (emitAs === 'stdout') this.emit({ type: 'coder-output', stream: 'stdout', text: `${safe}\n` });
    if (emitAs === 'progress') this.emit({ type: 'coder-progress', message: safe });
  }

  /** Takes a chunk of the server's own output (host runtime), line by line. */
  serverOutput(stream: 'stdout' | 'stderr', chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoders[stream].write(chunk);
    // Past the cap only stderr's tail is still needed (for error messages); the rest is read and dropped.
    if (this.truncated && stream === 'stdout') return;
    const buffered = this.partial[stream] + text;
    let start = 0;
    for (;;) {
      const newline = buffered.indexOf('\n', start);
      const end =
        newline >= 0 && newline - start < maximumLineCharacters
          ? newline + 1
          : buffered.length - start >= maximumLineCharacters
            ? start + maximumLineCharacters
            : -1;
      if (end < 0) break;
      this.serverLine(stream, buffered.slice(start, end));
      start = end;
    }
    this.partial[stream] = buffered.slice(start);
  }

  /** The end of what the server printed on stderr, redacted. */
  stderrTail(): string {
    return this.stderr;
  }

  /** Writes what is left of partial lines and the closing line, then closes the file. Safe to call twice. */
  finish(line: string): void {
    if (this.closed) return;
    for (const stream of ['stdout', 'stderr'] as const) {
      const rest = this.partial[stream] + this.decoders[stream].end();
      this.partial[stream] = '';
      if (rest !== '') this.serverLine(stream, `${rest}\n`);
      const held = this.streamRedactors[stream].flush();
      if (held !== '') this.serverText(stream, held);
    }
    // The closing line is snodo's own and always written, past the cap too: it says how the attempt ended.
    writeSync(this.descriptor, `${this.redact(line)}\n`);
    this.closed = true;
    closeSync(this.descriptor);
  }

  private serverLine(stream: 'stdout' | 'stderr', line: string): void {
    const safe = this.streamRedactors[stream].push(line);
    if (safe !== '') this.serverText(stream, safe);
  }

  private serverText(stream: 'stdout' | 'stderr', safe: string): void {
    if (stream === 'stderr') this.stderr = (this.stderr + safe).slice(-stderrTailCharacters);
    if (this.truncated) return;
    this.write(stream === 'stderr' ? `[server stderr] ${safe}` : `[server] ${safe}`);
    if (!this.truncated) this.emit({ type: 'coder-output', stream, text: safe });
  }

  /** Passes an event on; a listener that throws must not break the run. */
  private emit(event: CoderV1Event): void {
    try {
      this.options.emit(event);
    } catch {
      // The event stream is a view; the transcript is the record.
    }
  }

  private write(text: string): void {
    if (this.closed || this.truncated) return;
    const bytes = Buffer.byteLength(text);
    if (this.written + bytes > this.options.capBytes) {
      this.truncated = true;
      writeSync(
        this.descriptor,
        `… transcript truncated: the cap of ${this.options.capBytes} bytes was reached; later output was read and dropped …\n`,
      );
      this.emit({
        type: 'coder-progress',
        message: `output beyond ${this.options.capBytes} bytes is not recorded or shown`,
      });
      return;
    }
    this.written += bytes;
    writeSync(this.descriptor, text);
  }
}
