/** One line a diff adds, located in the new version of its file. */
export interface AddedLine {
  /** Repository-relative path of the file in the new version. */
  readonly path: string;
  /** 1-based line number in the new version. */
  readonly line: number;
  /** The line's text without the leading `+`. */
  readonly text: string;
}

const hunkHeader = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Undoes git's C-style quoting of a path (`"b/sp\303\251cial \"x\""`), decoding octal bytes as UTF-8. */
export function unquoteGitPath(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw;
  const body = raw.slice(1, -1);
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '"': 34, '\\': 92 };
  for (let index = 0; index < body.length; index += 1) {
    const character = body[index] ?? '';
    if (character !== '\\') {
      bytes.push(...Buffer.from(character, 'utf8'));
      continue;
    }
    const next = body[index + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(index + 1, index + 4));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      index += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function newPathOf(header: string): string | undefined {
  const raw = header.slice(4).replace(/\t$/, '');
  if (raw === '/dev/null') return undefined;
  const path = unquoteGitPath(raw);
  return path.startsWith('b/') ? path.slice(2) : path;
}

/**
 * The lines a unified diff adds, each with its file and line number. Only hunk content counts: the
 * `+++ b/path` file headers never do, and an added line that itself begins with `++` is still content,
 * because the parser counts each hunk's lines instead of guessing from prefixes.
 */
export function parseAddedLines(patch: string): AddedLine[] {
  const added: AddedLine[] = [];
  let path: string | undefined;
  let oldRemaining = 0;
  let newRemaining = 0;
  let newLine = 0;
  for (const line of patch.split('\n')) {
    if (oldRemaining > 0 || newRemaining > 0) {
      const marker = line[0];
      if (marker === '+') {
        if (path !== undefined) added.push({ path, line: newLine, text: line.slice(1) });
        newLine += 1;
        newRemaining -= 1;
      } else if (marker === '-') {
        oldRemaining -= 1;
      } else if (marker === ' ' || line === '') {
        newLine += 1;
        newRemaining -= 1;
        oldRemaining -= 1;
      }
      // `\ No newline at end of file` belongs to the hunk but counts for neither side.
      continue;
    }
    if (line.startsWith('diff --git ')) {
      path = undefined;
    } else if (line.startsWith('+++ ')) {
      path = newPathOf(line);
    } else {
      const header = hunkHeader.exec(line);
      if (header) {
        oldRemaining = header[1] === undefined ? 1 : Number(header[1]);
        newLine = Number(header[2]);
        newRemaining = header[3] === undefined ? 1 : Number(header[3]);
      }
    }
  }
  return added;
}
