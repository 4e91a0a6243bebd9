/** A line longer than this is not an event a CLI prints; it is dropped without being held in memory. */
const longestLine = 1024 * 1024;

/**
 * Turns chunks of text into whole lines for an `onOutput` hook, which sees chunks as they arrive (a JSON
 * event may be split across two). Keeps the unfinished last line until its end arrives; an endless line
 * is dropped rather than kept. Only each new chunk is searched for line ends and the unfinished line is
 * kept in its pieces, joined once: a long line in small chunks costs its length, not its length times
 * the number of chunks.
 */
export class LineSplitter {
  private partial: string[] = [];
  private partialLength = 0;
  private skipping = false;

  /** The lines this chunk completes, without their `\n` (or `\r\n`). */
  push(text: string): string[] {
    if (!text.includes('\n')) {
      this.hold(text);
      return [];
    }
    const lines = text.split('\n');
    const rest = lines.pop() ?? '';
    lines[0] = this.partial.join('') + (lines[0] ?? '');
    this.partial = [];
    this.partialLength = 0;
    if (this.skipping) {
      lines.shift();
      this.skipping = false;
    }
    this.hold(rest);
    return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  }

  private hold(text: string): void {
    if (this.skipping || text === '') return;
    this.partial.push(text);
    this.partialLength += text.length;
    if (this.partialLength > longestLine) {
      this.partial = [];
      this.partialLength = 0;
      this.skipping = true;
    }
  }
}
