import { describe, expect, it } from 'vitest';
import { TailBuffer } from './tail-buffer.js';

describe('TailBuffer', () => {
  it('keeps exactly the last characters, whatever the chunks', () => {
    const tail = new TailBuffer(10);
    for (const chunk of ['abc', '', 'defgh', 'ijklmnopq', 'r']) tail.append(chunk);
    expect(tail.toString()).toBe('ijklmnopqr');
    expect(tail.toString(3)).toBe('pqr');
    expect(tail.toString(50)).toBe('ijklmnopqr');
    tail.append('s'.repeat(25));
    expect(tail.toString()).toBe('s'.repeat(10));
  });

  it('keeps the end of a flood of one-character chunks', () => {
    // Regression (issue 14): each append shifted the array of every chunk kept, so a coder printing one
    // character at a time made the tail quadratic in what it kept.
    const tail = new TailBuffer(64 * 1024);
    const alphabet = 'abcdefghijklmnopqrstuvwxyz';
    for (let index = 0; index < 1024 * 1024; index += 1) tail.append(alphabet[index % 26] ?? '');
    const expected = alphabet.repeat(1024 * 1024).slice(1024 * 1024 - 64 * 1024, 1024 * 1024);
    expect(tail.toString()).toBe(expected);
  });
});
