import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Test support only (not exported from the package): real git repositories in temporary directories,
// with an identity and config that never come from the machine's own git configuration.

/** The identity tests commit as. */
export const testIdentity = { name: 'Test User', email: 'test@example.com' } as const;

/**
 * Point git (for this test process and everything it spawns) at a temporary global config holding the
 * test identity, with the system config ignored. Returns a function that restores the environment.
 */
export function useIsolatedGitConfiguration(): { home: string; globalConfig: string; restore: () => void } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'snodo-git-home-'));
  const globalConfig = path.join(home, 'gitconfig');
  writeFileSync(
    globalConfig,
    `[user]\n\tname = ${testIdentity.name}\n\temail = ${testIdentity.email}\n[init]\n\tdefaultBranch = trunk\n` +
      '[protocol "file"]\n\tallow = always\n',
  );
  const names = ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM', 'HOME', 'XDG_CONFIG_HOME'] as const;
  const saved = names.map((name) => [name, process.env[name]] as const);
  for (const name of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL']) {
    delete process.env[name];
  }
  process.env.GIT_CONFIG_GLOBAL = globalConfig;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = path.join(home, '.config');
  return {
    home,
    globalConfig,
    restore: () => {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A temporary repository with helpers that shell out to real git (argv arrays, never a shell). */
export interface TestRepository {
  /** A temporary directory holding the repository, the worktrees directory and anything else. */
  readonly temporaryDirectory: string;
  /** The repository's main working tree. */
  readonly root: string;
  /** A worktrees directory outside the repository. */
  readonly worktreesDirectory: string;
  /** Run git in `cwd` (default: the root); returns trimmed stdout. */
  git(args: readonly string[], cwd?: string): string;
  /** Write files (creating directories) relative to `cwd`. */
  write(files: Readonly<Record<string, string>>, cwd?: string): void;
  /** Read a file relative to `cwd`. */
  read(relativePath: string, cwd?: string): string;
  /** Write files, stage everything and commit; returns the new commit id. */
  commit(message: string, files: Readonly<Record<string, string>>, cwd?: string): string;
  /** The commit a revision names. */
  revParse(revision: string, cwd?: string): string;
  /** Delete everything. */
  cleanup(): void;
}

/** Create a repository on `branch` (default `trunk`) with one commit holding `README.md`. */
export function createTestRepository(
  options: { branch?: string; name?: string; objectFormat?: 'sha1' | 'sha256' } = {},
): TestRepository {
  const temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'snodo-git-test-'));
  const root = path.join(temporaryDirectory, options.name ?? 'project');
  const worktreesDirectory = path.join(temporaryDirectory, 'worktrees');
  mkdirSync(root, { recursive: true });
  const git = (args: readonly string[], cwd = root): string =>
    execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trimEnd();
  const write = (files: Readonly<Record<string, string>>, cwd = root): void => {
    for (const [relativePath, content] of Object.entries(files)) {
      const target = path.join(cwd, relativePath);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  };
  const commit = (message: string, files: Readonly<Record<string, string>>, cwd = root): string => {
    write(files, cwd);
    git(['add', '--all'], cwd);
    git(['commit', '--quiet', '--allow-empty', '-m', message], cwd);
    return git(['rev-parse', 'HEAD'], cwd);
  };
  git([
    'init',
    '--quiet',
    `--initial-branch=${options.branch ?? 'trunk'}`,
    `--object-format=${options.objectFormat ?? 'sha1'}`,
  ]);
  commit('initial', { 'README.md': 'hello\n' });
  return {
    temporaryDirectory,
    root,
    worktreesDirectory,
    git,
    write,
    read: (relativePath, cwd = root) => readFileSync(path.join(cwd, relativePath), 'utf8'),
    commit,
    revParse: (revision, cwd = root) => git(['rev-parse', '--verify', revision], cwd),
    cleanup: () => rmSync(temporaryDirectory, { recursive: true, force: true }),
  };
}
