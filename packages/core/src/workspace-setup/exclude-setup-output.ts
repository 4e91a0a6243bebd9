import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from '../git/git.js';
import { parsePorcelainStatus } from '../git/working-tree-status.js';

/** What setup left in the workspace, as git sees it. */
export interface SetupOutput {
  /** Untracked paths git does not ignore, now excluded (`node_modules/` for a project that does not ignore it). */
  readonly excluded: readonly string[];
  /** Tracked files setup changed or deleted: they would end up in the task's commit, so setup fails. */
  readonly changedTracked: readonly string[];
}

/** A path as a `.gitignore`-style pattern matching exactly it: anchored, with wildcards escaped. */
export function literalExcludePattern(relativePath: string): string {
  const escaped = relativePath.replace(/[\\*?[\]!#]/g, (character) => `\\${character}`).replace(/ $/, '\\ ');
  return `/${escaped}`;
}

/**
 * Keeps what setup created out of the coder's change (SPEC §6): the workspace is a fresh checkout of the
 * base commit, so whatever `git status` shows after setup is setup's (plus the files
 * `copy_into_workspace` brought). Untracked paths that the project does not gitignore (`node_modules/`
 * in a repository without a `.gitignore`, `*.egg-info/`, a copied `.env`) are appended to the workspace's
 * own `.git/info/exclude`, so `git add --all` in the task commit and the diff the gates read never hold
 * them; the user's repository and its `.gitignore` are not touched. A changed or deleted tracked file is
 * not hidden: it is returned, and setup fails, because excluding it is impossible and committing it would
 * pass setup's change off as the coder's.
 *
 * NOTE: git collapses a wholly untracked directory to `dir/` (`--untracked-files=normal`), so one pattern
 * covers a `node_modules` of any size.
 */
export async function excludeSetupOutput(workspacePath: string): Promise<SetupOutput> {
  const status = await git(
    ['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignore-submodules=dirty'],
    { cwd: workspacePath, readOnly: true },
  );
  const entries = parsePorcelainStatus(status.stdout);
  const excluded = entries.filter((entry) => entry.index === '?').map((entry) => entry.path);
  const changedTracked = entries.filter((entry) => entry.index !== '?').map((entry) => entry.path);
  if (excluded.length > 0) {
    const excludePath = path.join(workspacePath, '.git', 'info', 'exclude');
    await fs.mkdir(path.dirname(excludePath), { recursive: true });
    const current = await fs.readFile(excludePath, 'utf8').catch(() => '');
    const prefix = current.length > 0 && !current.endsWith('\n') ? '\n' : '';
    const lines = excluded.map(literalExcludePattern).join('\n');
    await fs.appendFile(excludePath, `${prefix}# left by snodo's workspace setup\n${lines}\n`);
  }
  return { excluded, changedTracked };
}
