import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `true` when `<workTree>/.git` is a directory whose `HEAD` is a plain file saying `ref: <ref>`: how git's
 * files backend stores a checked-out branch, read without a `rev-parse` process. Anything else (a linked
 * worktree's `.git` file, a symlink, a detached or other HEAD, a reftable repository's stub) is `false`,
 * and the caller asks git.
 */
export function headFileNames(workTree: string, ref: string): boolean {
  const dotGit = path.join(workTree, '.git');
  const headFile = path.join(dotGit, 'HEAD');
  try {
    return (
      lstatSync(dotGit).isDirectory() &&
      lstatSync(headFile).isFile() &&
      readFileSync(headFile, 'utf8') === `ref: ${ref}\n`
    );
  } catch {
    return false;
  }
}
