import { statSync } from 'node:fs';
import path from 'node:path';

/**
 * Identity of `<root>/.git` (device, inode, birth time), or `undefined` when there is none: what tells a
 * repository apart from one deleted and made again at the same path, whose inode number the filesystem
 * reuses at once. Without a birth time (some filesystems report 0) the change time stands in: it moves on
 * every write inside `.git`, which costs a cache a re-read now and then but never a stale answer.
 */
export function dotGitIdentity(root: string): string | undefined {
  const stats = statSync(path.join(root, '.git'), { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  return `${stats.dev}:${stats.ino}:${stats.birthtimeMs > 0 ? stats.birthtimeMs : `c${stats.ctimeMs}`}`;
}
