import { realpathSync } from 'node:fs';
import path from 'node:path';

/** `true` when `child` is `parent` itself or lies below it, after resolving symlinks on both. */
export function isPathInside(parent: string, child: string): boolean {
  const relative = path.relative(canonicalPath(parent), canonicalPath(child));
  return (
    relative === '' ||
    !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
  );
}

/**
 * `target` with symlinks resolved in its deepest existing ancestor, so paths compare equal whether git or
 * the caller wrote them (`/tmp` vs `/private/tmp` on macOS) and whether or not the leaf exists yet.
 */
export function canonicalPath(target: string): string {
  const absolute = path.resolve(target);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}
