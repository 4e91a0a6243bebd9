import path from 'node:path';
import { git } from '../git/git.js';
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

/** `core.hooksPath` as one config file sets it, resolved like git does, or `undefined`. */
async function hooksPathIn(configFile: string, repositoryRoot: string, homeDirectory: string) {
  const result = await git(['config', '--file', configFile, '--get', 'core.hooksPath'], {
    cwd: repositoryRoot,
    allowFailure: true,
    readOnly: true,
  });
  const value = result.exitCode === 0 ? result.stdout.trim() : '';
  if (value === '' || value === '/dev/null') return undefined;
  if (value === '~' || value.startsWith('~/')) return path.join(homeDirectory, value.slice(1));
  return path.resolve(repositoryRoot, value);
}

/**
 * Everything a coder or a command gate could change to run code on the user's machine later, hide the
 * user's files, or loosen snodo's own rules — and that no legitimate step of a run changes: the
 * repository's git config, hooks (and a `core.hooksPath` target) and `info/` (exclude, attributes), the
 * user's global git config, the protocol in the main checkout, snodo's config and signing key. Branch refs
 * are not here (they move legitimately; landing guards the base), nor the audit trail (its own check
 * allows other jobs' appends).
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
  ];
  for (const configFile of [repositoryConfig, globals[0] as string]) {
    const hooks = await hooksPathIn(configFile, scope.repositoryRoot, scope.homeDirectory);
    if (hooks !== undefined)
      watched.push({ path: hooks, label: 'the hooks core.hooksPath names', directory: true });
  }
  return watched;
}
