import os from 'node:os';
import path from 'node:path';
import { git } from '../git/git.js';

/**
 * The keys of the user's git config a task workspace copies or needs. Only values that change how files
 * are converted on checkout and commit are copied (a linked worktree saw them through the shared config,
 * a sandboxed coder no longer sees the user's HOME); nothing that names a program to run (filters, diff
 * drivers, fsmonitor, hooks, pagers, credential helpers) is ever copied. Remote and branch URLs are only
 * read, to resolve relative submodule URLs, and never written into a workspace.
 */
const settingsPattern =
  '^(core\\.(autocrlf|eol|safecrlf|excludesfile)|submodule\\..*\\.url|remote\\..*\\.url|branch\\..*\\.remote)$';

/** The config keys copied into a workspace's own config when the user has them set. */
export const copiedConfigKeys = ['core.autocrlf', 'core.eol', 'core.safecrlf'] as const;

/**
 * The effective values (system, global and repository config; the last one wins) of the keys above, in
 * one `git config` call. Keys are lowercased in their section and variable parts as git prints them.
 */
export async function readRepositorySettings(repositoryRoot: string): Promise<Map<string, string>> {
  const result = await git(['config', '--null', '--get-regexp', settingsPattern], {
    cwd: repositoryRoot,
    allowFailure: true,
    readOnly: true,
  });
  const settings = new Map<string, string>();
  for (const record of result.stdout.split('\0')) {
    const newline = record.indexOf('\n');
    if (newline === -1) continue;
    settings.set(record.slice(0, newline), record.slice(newline + 1));
  }
  return settings;
}

/**
 * The user's global excludes file: `core.excludesFile`, else git's default `$XDG_CONFIG_HOME/git/ignore`
 * (`~/.config/git/ignore`). A sandboxed coder cannot see it, so its patterns are copied into the
 * workspace's `info/exclude`, and `git status` means the same inside and outside the sandbox.
 */
export function globalExcludesPath(settings: ReadonlyMap<string, string>): string {
  const configured = settings.get('core.excludesfile');
  const home = process.env.HOME ?? os.homedir();
  if (configured !== undefined && configured !== '') {
    return configured === '~' || configured.startsWith('~/')
      ? path.join(home, configured.slice(1))
      : path.resolve(configured);
  }
  const xdg = process.env.XDG_CONFIG_HOME;
  return path.join(xdg !== undefined && xdg !== '' ? xdg : path.join(home, '.config'), 'git', 'ignore');
}

/** A config value in git's quoted syntax, safe for any text (quotes, backslashes, `#`, `;`, spaces). */
export function quoteConfigValue(value: string): string {
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t');
  return `"${escaped}"`;
}
