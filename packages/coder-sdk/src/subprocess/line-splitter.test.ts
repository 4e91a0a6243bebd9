import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

/** Every line `text` yields when it arrives in chunks of `size` characters. */
function linesOf(text: string, size: number): string[] {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  for (let offset = 0; offset < text.length; offset += size)
    lines.push(...splitter.push(text.slice(offset, offset + size)));
  return lines;
}

describe('LineSplitter with long lines', () => {
  it('yields a 900 KB event line arriving in small chunks whole, and CRLF split across chunks', () => {
    // Regression (issue 14): every chunk re-joined and re-split the unfinished line, quadratic in its length.
    const event = `{"type":"result","text":"${'x'.repeat(900 * 1024)}"}`;
    const lines = linesOf(`${event}\r\nnext\r\n`, 64);
    expect(lines.length).toBe(2);
    expect(lines[0] === event).toBe(true);
    expect(lines[1]).toBe('next');
  });

  it('drops an endless line without keeping it, and yields the lines after it', () => {
    const endless = 'y'.repeat(3 * 1024 * 1024);
    expect(linesOf(`first\n${endless}\nafter\nlast`, 4096)).toEqual(['first', 'after']);
  });
});
