import { askCommitReader } from './commit-reader.js';
import { git } from './git.js';
import { readCommitParents } from './read-commit-parents.js';

/**
 * The full commit id `revision` names, or `undefined` when it names no commit (`<revision>^{commit}`, as
 * `rev-parse --verify` reads it), answered by the repository's long-lived reader (`commit-reader.ts`).
 */
export async function resolveCommit(cwd: string, revision: string): Promise<string | undefined> {
  const [commit] = await resolveCommits(cwd, [revision]);
  return commit;
}

/** The full object id `revision` names (any object type). Throws `GitCommandError` when it names nothing. */
export async function revParse(cwd: string, revision: string): Promise<string> {
  if (!/[\r\n]/.test(revision)) {
    const [name] = ((await askCommitReader(cwd, [revision]))?.[0] ?? '').split(' ');
    if (name !== undefined && FULL_OBJECT_NAME.test(name)) return name;
  }
  // Not found (or no reader): git's own answer, and its error message when it names nothing.
  const result = await git(['rev-parse', '--verify', '--end-of-options', revision], { cwd, readOnly: true });
  return result.stdout.trim();
}

/**
 * Several revisions resolved to commits, in order; a revision that names no commit is `undefined`. Answered
 * by the repository's reader when `cwd` is the top of a working tree, otherwise by one `cat-file
 * --batch-check` process for all of them.
 */
export async function resolveCommits(
  cwd: string,
  revisions: readonly string[],
): Promise<Array<string | undefined>> {
  if (revisions.length === 0) return [];
  for (const revision of revisions) {
    // One revision per line: a line break inside one would make it two questions.
    if (/[\r\n]/.test(revision) || revision.trim() === '') {
      throw new Error(`resolveCommits: bad revision ${JSON.stringify(revision)}`);
    }
  }
  const questions = revisions.map((revision) => `${revision}^{commit}`);
  const lines =
    (await askCommitReader(cwd, questions)) ??
    (
      await git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
        cwd,
        input: `${questions.join('\n')}\n`,
        readOnly: true,
      })
    ).stdout.split('\n');
  return revisions.map((_, index) => {
    const [name, type] = (lines[index] ?? '').split(' ');
    return type === 'commit' && name !== undefined && FULL_OBJECT_NAME.test(name) ? name : undefined;
  });
}

/**
 * How two commits (full object names) are related, from one `git merge-base`: `same`, `ancestor` (a is in b's history),
 * `descendant` (b is in a's), or `diverged` (neither; also when they share no history).
 */
export async function relateCommits(
  cwd: string,
  a: string,
  b: string,
): Promise<'same' | 'ancestor' | 'descendant' | 'diverged'> {
  if (a === b) return 'same';
  // The usual landing: the task's one commit sits right on the base. A parent named in the commit object
  // (read without a process) answers that; anything else goes to merge-base.
  const [readA, readB] = await Promise.all([readCommitParents(cwd, a), readCommitParents(cwd, b)]);
  if (readA?.commit === a && readA.parents.includes(b)) return 'descendant';
  if (readB?.commit === b && readB.parents.includes(a)) return 'ancestor';
  const result = await git(['merge-base', '--end-of-options', a, b], {
    cwd,
    allowFailure: true,
    readOnly: true,
  });
  // Exit 1 with no output: no common ancestor. Anything else is a real failure (an unknown commit).
  if (result.exitCode === 1 && result.stdout.trim() === '') return 'diverged';
  if (result.exitCode !== 0) await git(['merge-base', '--end-of-options', a, b], { cwd, readOnly: true });
  const base = result.stdout.trim();
  if (base === a) return 'ancestor';
  if (base === b) return 'descendant';
  return 'diverged';
}

/** `true` when `ancestor` is `descendant` or one of its ancestors (so `descendant` can fast-forward over it). */
export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  // A commit is its own ancestor; landing asks that often (a base that did not move). Only two equal full
  // object names are answered without git: callers pass commits they resolved, and a ref name (which may
  // move, or name nothing) still goes to git.
  if (ancestor === descendant && FULL_OBJECT_NAME.test(ancestor)) return true;
  const result = await git(['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant], {
    cwd,
    allowFailure: true,
    readOnly: true,
  });
  if (result.exitCode === 0) return true;
  if (result.exitCode === 1) return false;
  // Anything else is a real failure (unknown commit): rerun without allowFailure for the typed error.
  await git(['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant], {
    cwd,
    readOnly: true,
  });
  return false;
}

const FULL_OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
