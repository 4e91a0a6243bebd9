import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CoderV1FileProposal } from '@snodo/coder-sdk';
import { ProposalPathRefusedError } from '@snodo/coder-sdk';
import type { SubmittedFile } from './submit-files-tool.js';
import {
  isInsideDirectory,
  lexicalPathProblem,
  pathSegments,
  realDeepestAncestor,
  WRITE_PROTECTED_SEGMENTS,
} from './workspace-path.js';

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Why a proposed path may not be written into `realRoot`, or `undefined` when it may. */
function pathProblem(realRoot: string, file: SubmittedFile): string | undefined {
  const lexical = lexicalPathProblem(file.path, WRITE_PROTECTED_SEGMENTS);
  if (lexical !== undefined) return lexical;
  const segments = pathSegments(file.path);
  const target = join(realRoot, ...segments);
  if (!isInsideDirectory(realRoot, realDeepestAncestor(dirname(target)))) {
    return 'the path leads outside the worktree through a symbolic link';
  }
  for (let depth = 1; depth < segments.length; depth += 1) {
    const ancestor = lstatOrUndefined(join(realRoot, ...segments.slice(0, depth)));
    if (ancestor !== undefined && !ancestor.isDirectory() && !ancestor.isSymbolicLink()) {
      return `${segments.slice(0, depth).join('/')} is a file, so nothing can be created beneath it`;
    }
  }
  const existing = lstatOrUndefined(target);
  if (existing?.isSymbolicLink() === true) return 'the path is a symbolic link';
  if (existing?.isDirectory() === true) return 'the path is a directory, not a file';
  return undefined;
}

/**
 * Checks every file the model submitted before the coder returns them, with the same rules core applies
 * when it writes: relative, inside the worktree, no `..`, not absolute, no symbolic link leading outside
 * (nor a symlink as the file itself), nothing under `.snodo/` or `.git/` in any letter case. It also
 * refuses writing onto a directory or beneath a file. The first refused path fails the whole submission,
 * so nothing of it reaches core; core checks again anyway.
 *
 * Returns the proposals with normalised paths (`./src//a.ts` → `src/a.ts`).
 *
 * @throws {ProposalPathRefusedError} naming the path and the reason.
 */
export function checkProposals(
  workspace: string,
  files: readonly SubmittedFile[],
  displayName: string,
): CoderV1FileProposal[] {
  const realRoot = realpathSync(workspace);
  return files.map((file) => {
    const problem = pathProblem(realRoot, file);
    if (problem !== undefined)
      throw new ProposalPathRefusedError({ path: file.path, reason: problem, displayName });
    const path = pathSegments(file.path).join('/');
    return file.action === 'delete'
      ? { path, action: 'delete' }
      : { path, action: 'write', content: file.content ?? '' };
  });
}
