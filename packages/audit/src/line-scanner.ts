import type { FileHandle } from 'node:fs/promises';

/** The longest line any reader of this package accepts (4 MiB); writers cap lines lower. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
const defaultChunkBytes = 1024 * 1024;

/**
 * Receives one line. `bytes` is a view into the scanner's buffer, valid only during the call; `offset` is
 * the byte offset of its first byte; `terminated` is false only for a last line with no newline.
 */
export type LineHandler = (bytes: Buffer, offset: number, terminated: boolean) => void;

/**
 * Reads a file line by line through one fixed buffer, so memory stays constant however long the log is:
 * a 1 MiB buffer, grown only for a line longer than that, up to `MAX_LINE_BYTES`. Callers drive it chunk by
 * chunk (`next`), which lets the verifier run a whole chunk synchronously and lets an async generator
 * yield between chunks.
 */
export class LineScanner {
  readonly #handle: FileHandle;
  #buffer: Buffer;
  /** Buffer index of the first byte not yet handed out. */
  #start = 0;
  /** Buffer index one past the last byte read. */
  #end = 0;
  /** File offset of `#buffer[0]`. */
  #bufferOffset = 0;
  #done = false;
  #overlongOffset: number | undefined;
  /** File offset the scan stops at, as if the file ended there. */
  readonly #endOffset: number;

  /**
   * `startOffset` must be the first byte of a line: scanning a log's growth starts after a known head.
   * `endOffset` (default: the end of the file) reads the file as if it ended there: a snapshot's prefix.
   */
  constructor(
    handle: FileHandle,
    chunkBytes: number = defaultChunkBytes,
    startOffset = 0,
    endOffset = Number.POSITIVE_INFINITY,
  ) {
    this.#handle = handle;
    this.#bufferOffset = startOffset;
    this.#endOffset = endOffset;
    this.#buffer = Buffer.allocUnsafe(Math.min(chunkBytes, MAX_LINE_BYTES + 1));
  }

  /** Byte offset of a line longer than `MAX_LINE_BYTES`, when scanning stopped at one. */
  get overlongOffset(): number | undefined {
    return this.#overlongOffset;
  }

  /**
   * Reads the next chunk and calls `onLine` for every line it completes. Returns false once the file is
   * exhausted (after reporting a last, unterminated line) or a line exceeded `MAX_LINE_BYTES`.
   */
  async next(onLine: LineHandler): Promise<boolean> {
    if (this.#done) return false;
    if (this.#start > 0) {
      this.#buffer.copyWithin(0, this.#start, this.#end);
      this.#bufferOffset += this.#start;
      this.#end -= this.#start;
      this.#start = 0;
    }
    if (this.#end === this.#buffer.length) {
      // One line fills the whole buffer: grow it, or give up on a line no writer could have produced.
      if (this.#buffer.length > MAX_LINE_BYTES) {
        this.#overlongOffset = this.#bufferOffset;
        this.#done = true;
        return false;
      }
      const grown = Buffer.allocUnsafe(Math.min(this.#buffer.length * 2, MAX_LINE_BYTES + 1));
      this.#buffer.copy(grown, 0, 0, this.#end);
      this.#buffer = grown;
    }
    const position = this.#bufferOffset + this.#end;
    const wanted = Math.min(this.#buffer.length - this.#end, this.#endOffset - position);
    const { bytesRead } =
      wanted <= 0 ? { bytesRead: 0 } : await this.#handle.read(this.#buffer, this.#end, wanted, position);
    if (bytesRead === 0) {
      this.#done = true;
      if (this.#end > 0) onLine(this.#buffer.subarray(0, this.#end), this.#bufferOffset, false);
      return false;
    }
    const searchFrom = this.#end;
    this.#end += bytesRead;
    let lineStart = 0;
    let newline = this.#buffer.indexOf(10, searchFrom);
    while (newline !== -1 && newline < this.#end) {
      onLine(this.#buffer.subarray(lineStart, newline), this.#bufferOffset + lineStart, true);
      lineStart = newline + 1;
      newline = this.#buffer.indexOf(10, lineStart);
    }
    this.#start = lineStart;
    return true;
  }
}
