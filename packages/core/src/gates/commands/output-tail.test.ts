import { describe, expect, it } from 'vitest';
import { lastLines, lastNonEmptyLine } from './output-tail.js';

describe('lastLines', () => {
  it('keeps the last lines, drops trailing blank ones, and cuts to the character limit from the front', () => {
    const output = 'one\ntwo\nthree\nfour\n\n  \n';
    expect(lastLines(output, 2, 100)).toBe('three\nfour');
    expect(lastLines(output, 10, 100)).toBe('one\ntwo\nthree\nfour');
    expect(lastLines(output, 2, 7)).toBe('ee\nfour');
    expect(lastLines(output, 0, 100)).toBe('');
    expect(lastLines('\n \t\n', 3, 100)).toBe('');
  });

  it('keeps the end of floods of whitespace, blank lines and one endless line', () => {
    // Regression (issue 14): a test's output of 64 KB of spaces before its last word took 6 s to trim.
    expect(lastLines(`${' '.repeat(64 * 1024)}FAIL\n`, 60, 6000)).toBe(`${' '.repeat(5996)}FAIL`);
    expect(lastLines(`${'\n'.repeat(64 * 1024)}FAIL\n${'\n \t'.repeat(10_000)}`, 3, 6000)).toBe('\n\nFAIL');
    const endless = 'x'.repeat(1024 * 1024);
    expect(lastLines(`head\n${endless}\n`, 60, 6000)).toBe('x'.repeat(6000));
  });
});

describe('lastNonEmptyLine', () => {
  it('is the last line with text, trimmed and cut', () => {
    expect(lastNonEmptyLine('first\n  12 tests passed  \n\n\t\n')).toBe('12 tests passed');
    expect(lastNonEmptyLine(`${' '.repeat(64 * 1024)}FAIL${' \n'.repeat(10_000)}`)).toBe('FAIL');
    expect(lastNonEmptyLine(`${'y'.repeat(300)}\n`, 5)).toBe('yyyyy…');
    expect(lastNonEmptyLine(' \n\n')).toBe('');
  });
});
