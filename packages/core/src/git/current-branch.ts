import { git } from './git.js';
import { GitCommandError } from './git-command-error.js';
import { resolveCommit } from './rev-parse.js';

/** What a working tree's HEAD points at. Returned by `currentBranch`. */
export type CurrentBranch =
  | {
      /** HEAD is a branch. */
      readonly detached: false;
      /** Short branch name, e.g. `trunk`. */
      readonly name: string;
      /** Full ref, e.g. `refs/heads/trunk`. */
      readonly ref: string;
      /** The branch tip; `undefined` on an unborn branch (a repository without commits). */
      readonly commit: string | undefined;
    }
  | {
      /** HEAD is a bare commit (detached), e.g. during a bisect or after `git checkout <sha>`. */
      readonly detached: true;
      /** The commit HEAD points at. */
      readonly commit: string;
    };

/**
 * The branch checked out in the working tree containing `cwd`, or the detached commit. The default base of
 * a task comes from here, and a detached HEAD is what makes snodo ask for `--base`.
 */
export async function currentBranch(cwd: string): Promise<CurrentBranch> {
  // One process answers the usual case (a branch with commits, or a detached commit): the commit, then the
  // name HEAD stands for. An unborn branch or HEAD pointing outside refs/heads/ takes the two-step path.
  const both = await git(['rev-parse', 'HEAD^{commit}', '--symbolic-full-name', 'HEAD'], {
    cwd,
    allowFailure: true,
    readOnly: true,
  });
  const [headCommit, headName] = both.stdout.split('\n');
  if (both.exitCode === 0 && headCommit && headName) {
    if (headName === 'HEAD') return { detached: true, commit: headCommit };
    if (headName.startsWith('refs/heads/')) {
      return {
        detached: false,
        name: headName.slice('refs/heads/'.length),
        ref: headName,
        commit: headCommit,
      };
    }
  }
  const symbolic = await git(['symbolic-ref', '--quiet', 'HEAD'], {
    cwd,
    allowFailure: true,
    readOnly: true,
  });
  const ref = symbolic.stdout.trim();
  if (symbolic.exitCode === 0 && ref.startsWith('refs/heads/')) {
    return {
      detached: false,
      name: ref.slice('refs/heads/'.length),
      ref,
      commit: await resolveCommit(cwd, ref),
    };
  }
  const commit = await resolveCommit(cwd, 'HEAD');
  if (commit === undefined) {
    // Re-run for git's own explanation (not a repository, broken HEAD…).
    await git(['rev-parse', '--verify', 'HEAD'], { cwd, readOnly: true });
    throw new GitCommandError({
      args: ['rev-parse', 'HEAD'],
      cwd,
      exitCode: 128,
      stderr: 'HEAD names no commit',
    });
  }
  return { detached: true, commit };
}
