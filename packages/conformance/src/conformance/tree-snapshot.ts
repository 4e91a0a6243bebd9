import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Every file under a directory, by relative path, as a string that changes when its bytes or mode do. */
export type TreeSnapshot = ReadonlyMap<string, string>;

/** Reads `directory` recursively, leaving out top-level entries named in `exclude` (`.git`). */
export function snapshotTree(directory: string, exclude: readonly string[] = ['.git']): TreeSnapshot {
  const files = new Map<string, string>();
  if (!existsSync(directory)) return files;
  const walk = (absolute: string, relative: string) => {
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (relative === '' && exclude.includes(entry.name)) continue;
      const childAbsolute = path.join(absolute, entry.name);
      const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(childAbsolute, childRelative);
      } else if (entry.isSymbolicLink()) {
        files.set(childRelative, `symlink ${readlinkSync(childAbsolute)}`);
      } else if (entry.isFile()) {
        const mode = (lstatSync(childAbsolute).mode & 0o777).toString(8);
        const digest = createHash('sha256').update(readFileSync(childAbsolute)).digest('hex');
        files.set(childRelative, `file ${mode} ${digest}`);
      }
    }
  };
  walk(directory, '');
  return files;
}

/** The paths that were added, changed or removed between two snapshots, described, sorted. */
export function compareTrees(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const differences: string[] = [];
  for (const relativePath of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const old = before.get(relativePath);
    const now = after.get(relativePath);
    if (old === now) continue;
    differences.push(
      old === undefined
        ? `added ${relativePath}`
        : now === undefined
          ? `removed ${relativePath}`
          : `changed ${relativePath}`,
    );
  }
  return differences;
}
