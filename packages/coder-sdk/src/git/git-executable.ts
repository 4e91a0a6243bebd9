import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

let resolved: string | undefined;

/**
 * The git executable, found on snodo's PATH once per process. Spawning by absolute path avoids a PATH
 * search (one failed exec per PATH entry) on each of the several dozen git calls a run makes. Falls back to
 * plain `git` when none is found, so the spawn fails with the usual ENOENT and `GitCommandError` says to
 * install git.
 */
export function gitExecutable(): string {
  if (resolved !== undefined) return resolved;
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    // NOTE: an empty or relative PATH entry means "the current directory" to a shell; a repository's
    // own `./git` must never be what snodo runs.
    if (directory === '' || !isAbsolute(directory)) continue;
    const candidate = join(directory, 'git');
    try {
      accessSync(candidate, constants.X_OK);
      resolved = candidate;
      return candidate;
    } catch {
      // not here
    }
  }
  return 'git';
}
