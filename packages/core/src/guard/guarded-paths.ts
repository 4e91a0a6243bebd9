import path from 'node:path';
import { git } from '../git/git.js';
import { protocolCacheDirectory } from '../protocol/protocol-cache.js';
import type { GuardedPath } from './guarded-files.js';

/** Where one job's guard looks. */
export interface GuardScope {
  /** The main checkout. */
  readonly repositoryRoot: string;
  /** Its git common directory (`<root>/.git`). */
  readonly gitCommonDirectory: string;
  /** `$SNODO_HOME`: config, signing key, checkpoint store. */
  readonly snodoHome: string;
  /** The user's home directory, where their global git config lives. */
  readonly homeDirectory: string;
  /** snodo's environment (for `GIT_CONFIG_GLOBAL` and `XDG_CONFIG_HOME`). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The global git configuration files git reads for this user (`GIT_CONFIG_GLOBAL` replaces both). */
function globalGitFiles(scope: GuardScope): string[] {
  const configured = scope.env.GIT_CONFIG_GLOBAL;
  const xdg = scope.env.XDG_CONFIG_HOME ?? path.join(scope.homeDirectory, '.config');
  return [
    ...(configured
      ? [configured]
      : [path.join(scope.homeDirectory, '.gitconfig'), path.join(xdg, 'git', 'config')]),
    path.join(xdg, 'git', 'attributes'),
    path.join(xdg, 'git', 'ignore'),
  ];
}

/**
 * Every `core.hooksPath` git reads for this repository and user (system, global, XDG, repository and
 * included files), resolved like git does: one `git config --show-origin --get-all` where there was one
 * `git config --file` per file. It runs with the scope's home and config locations, so it reads the same
 * global files `globalGitFiles` watches.
 */
async function configuredHooksPaths(scope: GuardScope): Promise<string[]> {
  const result = await git(['config', '--show-origin', '-z', '--get-all', 'core.hooksPath'], {
    cwd: scope.repositoryRoot,
    env: {
      HOME: scope.homeDirectory,
      XDG_CONFIG_HOME: scope.env.XDG_CONFIG_HOME,
      GIT_CONFIG_GLOBAL: scope.env.GIT_CONFIG_GLOBAL,
    },
    allowFailure: true,
    readOnly: true,
  });
  // Exit 1: no file sets it. Any other failure (a config file git cannot parse) watches nothing more.
  if (result.exitCode !== 0) return [];
  const fields = result.stdout.split('\0');
  const paths: string[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const origin = fields[index] ?? '';
    const value = (fields[index + 1] ?? '').trim();
    // snodo's own `-c core.hooksPath=/dev/null` is the runner's, not the user's.
    if (!origin.startsWith('file:') || value === '' || value === '/dev/null') continue;
    if (value === '~' || value.startsWith('~/')) paths.push(path.join(scope.homeDirectory, value.slice(1)));
    else paths.push(path.resolve(scope.repositoryRoot, value));
  }
  return [...new Set(paths)];
}

/**
 * Everything a coder or a command gate could change to run code on the user's machine later, hide the
 * user's files, or loosen snodo's own rules — and that no legitimate step of a run changes: the
 * repository's git config, hooks (and a `core.hooksPath` target) and `info/` (exclude, attributes), the
 * user's global git config, the protocol in the main checkout and its parsed copy in snodo's cache, snodo's
 * config and signing key. Branch refs are not here (they move legitimately; landing guards the base), nor
 * the audit trail (its own check allows other jobs' appends).
 */
export async function guardedPaths(scope: GuardScope): Promise<GuardedPath[]> {
  const repositoryConfig = path.join(scope.gitCommonDirectory, 'config');
  const globals = globalGitFiles(scope);
  const watched: GuardedPath[] = [
    { path: repositoryConfig, label: "the repository's git config" },
    {
      path: path.join(scope.gitCommonDirectory, 'hooks'),
      label: "the repository's git hooks",
      directory: true,
    },
    {
      path: path.join(scope.gitCommonDirectory, 'info'),
      label: "the repository's info/ (exclude, attributes)",
      directory: true,
    },
    ...globals.map((file) => ({ path: file, label: 'your global git config' })),
    { path: path.join(scope.repositoryRoot, '.snodo', 'protocol.yml'), label: 'the protocol' },
    { path: path.join(scope.snodoHome, 'config.yml'), label: "snodo's config" },
    { path: path.join(scope.snodoHome, 'keys'), label: "snodo's signing key", directory: true },
    {
      path: protocolCacheDirectory(scope.snodoHome, scope.gitCommonDirectory),
      label: "snodo's protocol cache",
      directory: true,
    },
  ];
  for (const hooks of await configuredHooksPaths(scope))
    watched.push({ path: hooks, label: 'the hooks core.hooksPath names', directory: true });
  return watched;
}
