import { git } from './git.js';

/**
 * The full commit id `revision` names, or `undefined` when it names no commit. `--end-of-options` keeps a
 * revision that starts with `-` from being read as a flag.
 */
export async function resolveCommit(cwd: string, revision: string): Promise<string | undefined> {
  const result = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], {
    cwd,
    allowFailure: true,
    readOnly: true,
  });
  const commit = result.stdout.trim();
  return result.exitCode === 0 && commit !== '' ? commit : undefined;
}

/** The full object id `revision` names (any object type). Throws `GitCommandError` when it names nothing. */
export async function revParse(cwd: string, revision: string): Promise<string> {
  const result = await git(['rev-parse', '--verify', '--end-of-options', revision], { cwd, readOnly: true });
  return result.stdout.trim();
}

/** `true` when `ancestor` is `descendant` or one of its ancestors (so `descendant` can fast-forward over it). */
export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
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
