import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

function isExecutableFile(candidate: string): boolean {
  try {
    if (!statSync(candidate).isFile()) return false;
    accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds an executable the way a shell would, without running one: a `name` containing a `/` is checked as a
 * path (relative paths resolve against the current directory); a bare name is looked up in each directory of
 * `pathValue` in order (empty entries are skipped rather than meaning "the current directory", which would
 * let a repository plant a binary). Returns the absolute path, or `undefined` when nothing executable is
 * found.
 *
 * Used by `SubprocessCoderAdapter` with the coder's own `PATH` (`request.env.PATH`), so the binary found is
 * the one the coder's environment would run.
 */
export function findExecutable(name: string, pathValue: string | undefined): string | undefined {
  if (name === '') return undefined;
  if (name.includes('/')) {
    const candidate = path.resolve(name);
    return isExecutableFile(candidate) ? candidate : undefined;
  }
  for (const directory of (pathValue ?? '').split(path.delimiter)) {
    if (directory === '' || !path.isAbsolute(directory)) continue;
    const candidate = path.join(directory, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
