import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** git follows alternates of alternates this deep, no deeper. */
const maximumDepth = 5;

/**
 * Every object directory that `objectDirectory` borrows objects from through `info/alternates`, followed
 * recursively as git does (relative entries are relative to the directory that names them), absolute,
 * symlinks resolved, without duplicates and without `objectDirectory` itself. Sync and filesystem-only:
 * a sandbox is built from it before anything runs, and it must not run git.
 */
export function alternateObjectDirectories(objectDirectory: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>([resolved(objectDirectory)]);
  const visit = (directory: string, depth: number): void => {
    if (depth > maximumDepth) return;
    for (const entry of readAlternates(directory)) {
      const target = resolved(path.resolve(directory, entry));
      if (seen.has(target)) continue;
      seen.add(target);
      found.push(target);
      visit(target, depth + 1);
    }
  };
  visit(objectDirectory, 1);
  return found;
}

function readAlternates(objectDirectory: string): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(objectDirectory, 'info', 'alternates'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => (line.startsWith('"') ? unquoteC(line) : line));
}

/** git's C-style quoting (`"a\\tb\\"c\\303\\251"`), as git writes paths with special characters. */
function unquoteC(quoted: string): string {
  const bytes: number[] = [];
  const escapes: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '"': 34, '\\': 92 };
  const body = quoted.slice(1, quoted.endsWith('"') ? -1 : undefined);
  for (let index = 0; index < body.length; index++) {
    const character = body[index] as string;
    if (character !== '\\') {
      bytes.push(...Buffer.from(character, 'utf8'));
      continue;
    }
    const next = body[index + 1] ?? '';
    if (/^[0-7]{3}$/.test(body.slice(index + 1, index + 4))) {
      bytes.push(Number.parseInt(body.slice(index + 1, index + 4), 8));
      index += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function resolved(directory: string): string {
  try {
    return realpathSync.native(directory);
  } catch {
    return path.resolve(directory);
  }
}
