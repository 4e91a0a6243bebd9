/** A line longer than this is not an event a CLI prints; it is dropped without being held in memory. */
const longestLine = 1024 * 1024;

/**
 * Turns chunks of text into whole lines for an `onOutput` hook, which sees chunks as they arrive (a JSON
 * event may be split across two). Keeps the unfinished last line until its end arrives; an endless line
 * is dropped rather than kept.
 */
export class LineSplitter {
  private partial = '';
  private skipping = false;

  /** The lines this chunk completes, without their `\n` (or `\r\n`). */
  push(text: string): string[] {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    if (this.skipping && lines.length > 0) {
      lines.shift();
      this.skipping = false;
    }
    if (this.partial.length > longestLine) {
      this.partial = '';
      this.skipping = true;
    }
    return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  }
}
