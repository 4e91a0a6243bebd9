import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, sep } from 'node:path';

/** Segments no proposal may write under: the rules the change is judged by, and git's own files. */
export const WRITE_PROTECTED_SEGMENTS: ReadonlySet<string> = new Set(['.git', '.snodo']);
/** Segments the read-only tools never open: git's objects, hooks and config are not the model's business. */
export const READ_PROTECTED_SEGMENTS: ReadonlySet<string> = new Set(['.git']);

/** A path split into its meaningful segments: `./src//a.ts` → `['src', 'a.ts']`. */
export function pathSegments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '' && segment !== '.');
}

/**
 * Why a path written by the model may not be used, judged on its text alone, or `undefined` when it may:
 * empty, a NUL byte, a backslash, absolute (POSIX or a Windows drive), a `..` segment, or a segment in
 * `protectedSegments`, compared case-insensitively because macOS and Windows treat `.GIT` as `.git`.
 */
export function lexicalPathProblem(
  path: string,
  protectedSegments: ReadonlySet<string>,
  options: { allowRoot?: boolean } = {},
): string | undefined {
  if (path.length === 0) return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL byte';
  if (path.includes('\\')) return 'the path contains a backslash; use / separators';
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path)) {
    return 'the path is absolute; paths must be relative to the repository root';
  }
  const segments = pathSegments(path);
  if (segments.length === 0 && options.allowRoot !== true) return 'the path names the repository root itself';
  for (const segment of segments) {
    if (segment === '..') return "the path contains a '..' segment";
    if (protectedSegments.has(segment.toLowerCase())) {
      return `the path is under ${segment}/, which is off limits`;
    }
  }
  return undefined;
}

/** Whether `candidate` is `root` or lies beneath it (both already resolved through symlinks). */
export function isInsideDirectory(root: string, candidate: string): boolean {
  const fromRoot = relative(root, candidate);
  return fromRoot === '' || (fromRoot !== '..' && !fromRoot.startsWith(`..${sep}`) && !isAbsolute(fromRoot));
}

/** The deepest existing ancestor of `path` (or `path` itself), resolved through symlinks. */
export function realDeepestAncestor(path: string): string {
  let current = path;
  for (;;) {
    try {
      return realpathSync(current);
    } catch {
      const parent = dirname(current);
      if (parent === current) return current;
      current = parent;
    }
  }
}
