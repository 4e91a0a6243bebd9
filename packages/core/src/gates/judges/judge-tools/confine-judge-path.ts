import { posix } from 'node:path';

/** A path a judge asked for: the repository-relative path to read, or why it was refused. */
export type ConfinedPath =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly error: string };

/**
 * Turns the path a model sent into a repository-relative path inside the tree, or refuses it: an absolute
 * path, one that climbs out with `..`, one that names `.git` (the repository's own internals), a NUL or a
 * backslash (never part of a path git stores). `''` and `.` are the repository root. Symbolic links are
 * resolved against the tree by the reader (`resolveTreePath`), not here: the path is only text until then.
 */
export function confineJudgePath(input: unknown, what = 'path'): ConfinedPath {
  if (input === undefined || input === null) return { ok: true, path: '' };
  if (typeof input !== 'string') return { ok: false, error: `${what} must be a string` };
  if (input.includes('\0')) return { ok: false, error: `${what} contains a NUL character` };
  if (input.includes('\\')) {
    return { ok: false, error: `${what} ${JSON.stringify(input)} contains a backslash; use / between parts` };
  }
  if (input.startsWith('/') || /^[A-Za-z]:/.test(input) || input.startsWith('~')) {
    return {
      ok: false,
      error: `${what} ${JSON.stringify(input)} is absolute; give a path relative to the repository root`,
    };
  }
  const normalised = posix.normalize(input.trim() === '' ? '.' : input);
  if (normalised === '..' || normalised.startsWith('../')) {
    return { ok: false, error: `${what} ${JSON.stringify(input)} is outside the workspace` };
  }
  const path = normalised === '.' || normalised === './' ? '' : normalised.replace(/\/+$/, '');
  // NOTE: git refuses `.git` in any case and with trailing dots or spaces on some filesystems (`.GIT`, `.git.`),
  // so every spelling is refused, not only the exact one.
  if (path.split('/').some((segment) => /^\.git[. ]*$/i.test(segment))) {
    return { ok: false, error: `${what} ${JSON.stringify(input)} names .git, the repository's internals` };
  }
  return { ok: true, path };
}
