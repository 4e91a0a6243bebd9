import { displayWidth, truncateToWidth } from './display-width.js';

/** The width of text on screen: colours take none, wide CJK and emoji two columns, marks none. */
export function visibleWidth(text: string): number {
  return displayWidth(text);
}

/** Pads `text` to `width` columns on screen. */
export function padVisible(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
}

/** How a table is laid out. */
export interface TableOptions {
  /** Put before every line. */
  readonly indent?: string;
  /** Formats the header row (the first). */
  readonly header?: (text: string) => string;
  /**
   * The columns the table may take. Default: the terminal's width when stdout is a terminal, else no
   * limit (a pipe, a file: scripts and `grep` get every character).
   */
  readonly maxWidth?: number | undefined;
  /**
   * The columns that may be cut with `…` to fit (a task, a reason), the widest first. Default: the
   * widest column only.
   */
  readonly shrinkable?: readonly number[];
}

/** A column is never cut below this (a header, a short word and its `…` stay readable). */
const NARROWEST = 8;

function defaultMaxWidth(): number | undefined {
  return process.stdout.isTTY === true && process.stdout.columns > 0 ? process.stdout.columns : undefined;
}

/**
 * The width of each column: its widest cell, then, while the table is wider than `maxWidth`, the widest
 * shrinkable column is narrowed, never below `NARROWEST`.
 */
function columnWidths(
  rows: readonly (readonly string[])[],
  maxWidth: number | undefined,
  indent: number,
  shrinkable: readonly number[] | undefined,
): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, visibleWidth(cell));
    });
  }
  if (maxWidth === undefined) return widths;
  // By default only the widest column gives way: cutting ids and statuses too would make every row
  // unreadable, so a table that still does not fit is left to wrap.
  const widestColumn = widths.indexOf(Math.max(...widths));
  const candidates = shrinkable ?? [widestColumn];
  const total = () => indent + widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1);
  while (total() > maxWidth) {
    const widest = candidates
      .filter((column) => (widths[column] ?? 0) > NARROWEST)
      .sort((a, b) => (widths[b] ?? 0) - (widths[a] ?? 0))[0];
    if (widest === undefined) break;
    widths[widest] = Math.max(NARROWEST, (widths[widest] ?? 0) - (total() - maxWidth));
  }
  return widths;
}

/**
 * Rows as aligned columns, two spaces apart, each line indented by `indent`; the last column is not
 * padded (no trailing spaces in a terminal copy). Widths are measured as a terminal draws them (CJK and
 * emoji two columns), and on a terminal the table fits its width: the widest free-text cells are cut
 * with `…` rather than wrapping every line.
 */
export function formatTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const indent = options.indent ?? '';
  const maxWidth = 'maxWidth' in options ? options.maxWidth : defaultMaxWidth();
  const widths = columnWidths(rows, maxWidth, visibleWidth(indent), options.shrinkable);
  return rows
    .map((row, index) => {
      const cells = row.map((cell, column) => {
        const width = widths[column] ?? 0;
        const fitted = visibleWidth(cell) > width ? truncateToWidth(cell, width) : cell;
        return column === row.length - 1 ? fitted : padVisible(fitted, width);
      });
      const line = `${indent}${cells.join('  ')}`.trimEnd();
      return index === 0 && options.header !== undefined ? options.header(line) : line;
    })
    .join('\n');
}
