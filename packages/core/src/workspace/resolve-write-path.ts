import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { ProposalPathRefusedError } from '@snodo/coder-sdk';

// Directories no proposal may write into, compared case-insensitively: macOS and Windows filesystems
// treat `.SNODO` and `.snodo` as the same directory.
const protectedSegments = new Set(['.git', '.snodo']);

function refuse(path: string, reason: string): never {
  throw new ProposalPathRefusedError({ path, reason });
}

function isInside(root: string, candidate: string): boolean {
  const fromRoot = relative(root, candidate);
  return fromRoot === '' || (!fromRoot.startsWith(`..${sep}`) && fromRoot !== '..' && !isAbsolute(fromRoot));
}

/** The deepest existing ancestor of `path`, resolved through symlinks. */
function realDeepestAncestor(path: string): string {
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

/**
 * Turns a path proposed by an engine-managed coder into an absolute path inside `root`, or refuses it
 * with `PROPOSAL_PATH_REFUSED` naming the path and the reason. Refused: empty paths, NUL bytes, absolute
 * paths, backslashes, `..` segments, anything under `.git/` or `.snodo/` (in any letter case),
 * a path whose existing ancestors lead outside the root through a symlink, and a final component that is
 * itself a symlink (even a dangling one), since writing through it would land wherever it points.
 */
export function resolveWritePath(root: string, proposedPath: string): string {
  if (proposedPath.length === 0) refuse(proposedPath, 'the path is empty');
  if (proposedPath.includes('\0')) refuse(proposedPath, 'the path contains a NUL byte');
  if (proposedPath.includes('\\')) refuse(proposedPath, 'the path contains a backslash; use / separators');
  if (isAbsolute(proposedPath))
    refuse(proposedPath, 'the path is absolute; paths must be relative to the worktree');
  const segments = proposedPath.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) refuse(proposedPath, 'the path names the worktree itself');
  for (const segment of segments) {
    if (segment === '..') refuse(proposedPath, "the path contains a '..' segment");
    if (protectedSegments.has(segment.toLowerCase())) {
      refuse(proposedPath, `the path is under ${segment}/, which coders may not change`);
    }
  }
  const realRoot = realpathSync(root);
  const target = join(realRoot, ...segments);
  if (!isInside(realRoot, realDeepestAncestor(dirname(target)))) {
    refuse(proposedPath, 'the path leads outside the worktree through a symbolic link');
  }
  try {
    if (lstatSync(target).isSymbolicLink()) refuse(proposedPath, 'the path is a symbolic link');
  } catch (error) {
    if (ProposalPathRefusedError.isInstance(error)) throw error;
    // ENOENT: a new file, fine.
  }
  return target;
}
