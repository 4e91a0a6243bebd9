/** The last `maxLines` lines of `text`, at most `maxChars` characters, trailing blank lines dropped. */
export function lastLines(text: string, maxLines: number, maxChars: number): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  const kept = lines.slice(Math.max(0, lines.length - maxLines)).join('\n');
  return kept.length > maxChars ? kept.slice(kept.length - maxChars) : kept;
}

/** The last non-empty line of `text`, cut to `maxChars`. */
export function lastNonEmptyLine(text: string, maxChars = 200): string {
  const lines = text.split('\n').map((line) => line.trim());
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? '';
    if (line !== '') return line.length > maxChars ? `${line.slice(0, maxChars)}…` : line;
  }
  return '';
}

/** A readable one-line form of an argv, quoting arguments that need it. */
export function displayArgv(argv: readonly string[]): string {
  return argv
    .map((argument) =>
      /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, "'\\''")}'`,
    )
    .join(' ');
}
