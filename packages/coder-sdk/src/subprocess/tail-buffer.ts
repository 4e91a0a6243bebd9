/** Small chunks are joined into pieces of up to this many characters. */
const pieceSize = 4096;

/**
 * Keeps the last `capacity` characters of a stream of text without copying the whole tail on every
 * chunk, so a flood of output costs constant memory and linear time. Small chunks are joined into pieces
 * and the oldest pieces are let go by moving a start index (`shift()` moves every later element: a flood
 * of one-character chunks made each append cost the whole tail).
 */
export class TailBuffer {
  private pieces: string[] = [];
  private first = 0;
  private length = 0;

  constructor(private readonly capacity: number) {}

  /** Adds text at the end, dropping the oldest text beyond the capacity. */
  append(text: string): void {
    if (text === '') return;
    const last = this.pieces.length - 1;
    const lastPiece = last >= this.first ? this.pieces[last] : undefined;
    if (lastPiece !== undefined && lastPiece.length + text.length <= pieceSize) {
      this.pieces[last] = lastPiece + text;
    } else {
      this.pieces.push(text);
    }
    this.length += text.length;
    while (
      this.pieces.length - this.first > 1 &&
      this.length - (this.pieces[this.first]?.length ?? 0) >= this.capacity
    ) {
      this.length -= this.pieces[this.first]?.length ?? 0;
      this.first += 1;
    }
    if (this.first > 64 && this.first * 2 > this.pieces.length) {
      this.pieces = this.pieces.slice(this.first);
      this.first = 0;
    }
  }

  /** The last `limit` characters, at most `capacity` (all of them by default). */
  toString(limit = this.capacity): string {
    const text = this.pieces.slice(this.first).join('');
    const kept = Math.min(limit, this.capacity);
    return text.length > kept ? text.slice(text.length - kept) : text;
  }
}
