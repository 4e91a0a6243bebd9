import { isAbsolute, join, resolve } from 'node:path';

/** Environment variables as a plain map; core never reads `process.env` itself. */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/** What `$SNODO_HOME` resolution reads, passed in so callers and tests decide it. */
export interface SnodoHomeOptions {
  /** The environment (`process.env` in the CLI). */
  readonly env: EnvironmentVariables;
  /** The user's home directory (`os.homedir()` in the CLI). */
  readonly homedir: string;
}

/** The config file's name inside `$SNODO_HOME`. */
export const CONFIG_FILE_NAME = 'config.yml';

/**
 * `~` and `~/…` expanded against `homedir`. `~user` forms are left alone: they name another user's home,
 * which snodo has no business guessing.
 */
export function expandTilde(path: string, homedir: string): string {
  if (path === '~') return homedir;
  if (path.startsWith('~/')) return join(homedir, path.slice(2));
  return path;
}

/**
 * snodo's per-user directory: `$SNODO_HOME` (tilde-expanded, made absolute) when set and not blank, else
 * `~/.snodo`. It holds `config.yml`, the audit signing key and, by default, the worktrees (SPEC §6, §8).
 */
export function resolveSnodoHome(options: SnodoHomeOptions): string {
  const configured = options.env.SNODO_HOME?.trim();
  if (configured === undefined || configured === '') return join(options.homedir, '.snodo');
  const expanded = expandTilde(configured, options.homedir);
  return isAbsolute(expanded) ? expanded : resolve(expanded);
}

/** `$SNODO_HOME/config.yml`. */
export function configFilePath(home: string): string {
  return join(home, CONFIG_FILE_NAME);
}

/**
 * Where worktrees live: config `worktrees_dir` (tilde-expanded; relative paths are taken from
 * `$SNODO_HOME`), else `$SNODO_HOME/worktrees`.
 */
export function worktreesDirectory(options: {
  readonly home: string;
  readonly homedir: string;
  readonly worktreesDir?: string | undefined;
}): string {
  if (options.worktreesDir === undefined || options.worktreesDir.trim() === '') {
    return join(options.home, 'worktrees');
  }
  const expanded = expandTilde(options.worktreesDir.trim(), options.homedir);
  return isAbsolute(expanded) ? expanded : resolve(options.home, expanded);
}
