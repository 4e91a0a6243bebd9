/**
 * Keeps the last `capacity` characters of a stream of text without copying the whole tail on every
 * chunk, so a flood of output costs constant memory and linear time.
 */
export class TailBuffer {
  private readonly chunks: string[] = [];
  private length = 0;

  constructor(private readonly capacity: number) {}

  /** Adds text at the end, dropping the oldest text beyond the capacity. */
  append(text: string): void {
    if (text === '') return;
    this.chunks.push(text);
    this.length += text.length;
    while (this.chunks.length > 1 && this.length - (this.chunks[0]?.length ?? 0) >= this.capacity) {
      this.length -= this.chunks.shift()?.length ?? 0;
    }
  }

  /** The last `limit` characters kept (all of them by default). */
  toString(limit = this.capacity): string {
    const text = this.chunks.join('');
    return text.length > limit ? text.slice(text.length - limit) : text;
  }
}
