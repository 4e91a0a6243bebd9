const ANSI = /\x1b\[[0-9;]*m/g;

/** The width of text on screen, without colour escape sequences. */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/** Pads `text` to `width` visible characters. */
export function padVisible(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
}

/**
 * Rows as aligned columns, two spaces apart, each line indented by `indent`; the last column is not
 * padded (no trailing spaces in a terminal copy). The header row, when given, is formatted by `header`.
 */
export function formatTable(
  rows: readonly (readonly string[])[],
  options: { readonly indent?: string; readonly header?: (text: string) => string } = {},
): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, visibleWidth(cell));
    });
  }
  const indent = options.indent ?? '';
  return rows
    .map((row, index) => {
      const cells = row.map((cell, column) =>
        column === row.length - 1 ? cell : padVisible(cell, widths[column] ?? 0),
      );
      const line = `${indent}${cells.join('  ')}`.trimEnd();
      return index === 0 && options.header !== undefined ? options.header(line) : line;
    })
    .join('\n');
}
