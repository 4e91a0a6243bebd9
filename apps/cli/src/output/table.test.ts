import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture, SNODO_BIN } from '../testing/cli-fixture.js';
import { onPseudoTerminal } from '../testing/pseudo-terminal.js';
import { displayWidth, truncateToWidth } from './display-width.js';
import { formatTable } from './table.js';

describe('displayWidth', () => {
  it('counts columns as a terminal draws them', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('修正バグ')).toBe(8);
    expect(displayWidth('한국어')).toBe(6);
    expect(displayWidth('ｆｕｌｌ')).toBe(8);
    // e + combining acute accent is one column; so is a precomposed é.
    expect(displayWidth('cafe\u0301')).toBe(4);
    expect(displayWidth('café')).toBe(4);
    expect(displayWidth('ok 😀')).toBe(5);
    expect(displayWidth('👩‍💻')).toBe(2);
    expect(displayWidth('\x1b[31mred\x1b[39m')).toBe(3);
  });

  it('cuts to a width with an ellipsis, never splitting a wide character', () => {
    expect(truncateToWidth('修正バグを直す', 6)).toBe('修正…');
    expect(displayWidth(truncateToWidth('修正バグを直す', 6))).toBeLessThanOrEqual(6);
    expect(truncateToWidth('short', 10)).toBe('short');
    expect(truncateToWidth('a plain ASCII task', 8)).toBe('a plain…');
    expect(truncateToWidth('\x1b[31mred text\x1b[39m', 4)).toBe('red…');
  });
});

describe('formatTable', () => {
  const rows = [
    ['job', 'status', 'task'],
    ['j_1', 'done', '修正: 日本語のタスク'],
    ['j_2', 'halted', 'plain'],
  ];

  it('aligns columns after wide characters (they were padded as one column each)', () => {
    const lines = formatTable(rows, { maxWidth: undefined }).split('\n');
    expect(lines[1]).toBe('j_1  done    修正: 日本語のタスク');
    expect(lines[2]).toBe('j_2  halted  plain');
  });

  it('fits a width by cutting the free-text column with …', () => {
    const wide = [
      ['id', 'task'],
      ['j_1', 'a'.repeat(100)],
    ];
    const lines = formatTable(wide, { maxWidth: 40, shrinkable: [1] }).split('\n');
    expect(lines.every((line) => displayWidth(line) <= 40)).toBe(true);
    expect(lines[1]).toMatch(/^j_1 {2}a+…$/);
  });
});

describe('tables on a terminal', () => {
  let fixture: CliFixture;
  beforeAll(() => {
    fixture = createCliFixture({ git: false });
  });
  afterAll(() => fixture.cleanup());

  it('fit the window: no line of `snodo coders` is wider than 100 columns (they wrapped)', () => {
    const { screen, exitCode } = onPseudoTerminal({
      argv: [process.execPath, SNODO_BIN, 'coders'],
      cwd: fixture.home,
      env: fixture.env,
      columns: 100,
    });
    expect(exitCode, screen).toBe(0);
    const tableLines = screen.split('\r\n').filter((line) => /^(coder|mock|claude-code) /.test(line));
    expect(tableLines).toHaveLength(3);
    for (const line of tableLines) expect(displayWidth(line), line).toBeLessThanOrEqual(100);
    expect(screen).toContain('…');
  });
});
