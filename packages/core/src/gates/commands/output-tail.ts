// Both read back from the end of the output, so they cost what they keep: the output is whatever the
// project's tests print. (`replace(/\s+$/, '')` took 6 s on 64 KB of spaces before one last character:
// each space started a scan to the end of the run.)

/** The last `maxLines` lines of `text`, at most `maxChars` characters, trailing blank lines dropped. */
export function lastLines(text: string, maxLines: number, maxChars: number): string {
  const body = text.trimEnd();
  // Lines that start before the last `maxChars` characters would be cut away anyway.
  const recent = body.slice(Math.max(0, body.length - maxChars));
  let start = recent.length;
  let searchFrom = recent.length - 1;
  for (let line = 0; line < maxLines; line += 1) {
    const newline = searchFrom < 0 ? -1 : recent.lastIndexOf('\n', searchFrom);
    start = newline + 1;
    if (newline === -1) break;
    searchFrom = newline - 1;
  }
  return recent.slice(start);
}

/** The last non-empty line of `text`, cut to `maxChars`. */
export function lastNonEmptyLine(text: string, maxChars = 200): string {
  const body = text.trimEnd();
  const line = body.slice(body.lastIndexOf('\n') + 1).trim();
  return line.length > maxChars ? `${line.slice(0, maxChars)}…` : line;
}

/** A readable one-line form of an argv, quoting arguments that need it. */
export function displayArgv(argv: readonly string[]): string {
  return argv
    .map((argument) =>
      /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, "'\\''")}'`,
    )
    .join(' ');
}
