/**
 * Test support (not exported, not built): a real git repository with a linked task worktree, laid out the
 * way core lays out a run, in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Points every git command of this test process at an empty global config and no system config, so the
 * machine's own git settings (identity, hooks, signing) never leak into a test. Vitest runs each test file
 * in its own process, so this stays inside the file that calls it. Returns the teardown, so
 * `beforeAll(() => isolateGitConfiguration())` cleans up after the file.
 */
export function isolateGitConfiguration(): () => void {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-gitconfig-'));
  const globalConfig = path.join(directory, 'gitconfig');
  writeFileSync(globalConfig, '');
  process.env.GIT_CONFIG_GLOBAL = globalConfig;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  return () => rmSync(directory, { recursive: true, force: true });
}

/** A repository, its task worktree and the directories a test needs around them. */
export interface TemporaryRepository {
  /** The temporary directory holding everything. */
  readonly root: string;
  /** The main checkout. */
  readonly main: string;
  /** The linked task worktree on branch `snodo/j_test1` (what `request.workspace` is). */
  readonly workspace: string;
  /** Where fake CLIs are written; put first on the coder's PATH. */
  readonly binDirectory: string;
  /** A private HOME for the coder. */
  readonly home: string;
  /** A directory outside the repository where fake CLIs leave evidence (pids, env dumps). */
  readonly evidence: string;
  /** The job directory in the main checkout (`.snodo/jobs/j_test1`). */
  readonly jobDirectory: string;
  /** Runs git in `cwd` (default: the worktree) and returns stdout. */
  git(args: readonly string[], cwd?: string): string;
  /** Reads a file of the worktree. */
  read(relativePath: string): string;
  /**
   * Aborted by `cleanup`: requests made by `makeRequest` use it, so a coder still running when a test
   * fails is stopped instead of outliving the test run.
   */
  readonly abortSignal: AbortSignal;
  /** Stops any coder still running and removes everything. */
  cleanup(): void;
}

const setupIdentity = {
  GIT_AUTHOR_NAME: 'Setup',
  GIT_AUTHOR_EMAIL: 'setup@example.com',
  GIT_COMMITTER_NAME: 'Setup',
  GIT_COMMITTER_EMAIL: 'setup@example.com',
};

/**
 * Creates `main/` with a first commit (README.md, src/app.txt, .snodo/protocol.yml, a .gitignore that
 * ignores node_modules/), its job directory excluded as core does, and `workspace/` as a linked worktree on
 * branch `snodo/j_test1`.
 */
export function createTemporaryRepository(): TemporaryRepository {
  const root = mkdtempSync(path.join(os.tmpdir(), 'snodo-coder-sdk-'));
  const main = path.join(root, 'main');
  const workspace = path.join(root, 'workspace');
  const binDirectory = path.join(root, 'bin');
  const home = path.join(root, 'home');
  const evidence = path.join(root, 'evidence');
  for (const directory of [main, binDirectory, home, evidence]) mkdirSync(directory, { recursive: true });
  const git = (args: readonly string[], cwd = workspace) =>
    execFileSync('git', [...args], { cwd, encoding: 'utf8', env: { ...process.env, ...setupIdentity } });

  git(['init', '-q', '-b', 'main'], main);
  mkdirSync(path.join(main, 'src'));
  mkdirSync(path.join(main, '.snodo'));
  writeFileSync(path.join(main, 'README.md'), '# Demo\n');
  writeFileSync(path.join(main, 'src', 'app.txt'), 'first line\n');
  writeFileSync(path.join(main, '.snodo', 'protocol.yml'), 'protocol_id: demo\nmodes: []\n');
  writeFileSync(path.join(main, '.gitignore'), 'node_modules/\n');
  git(['add', '-A'], main);
  git(['commit', '-q', '-m', 'initial'], main);
  writeFileSync(path.join(main, '.git', 'info', 'exclude'), '/.snodo/jobs/\n');
  git(['worktree', 'add', '-q', '-b', 'snodo/j_test1', workspace], main);
  const jobDirectory = path.join(main, '.snodo', 'jobs', 'j_test1');
  mkdirSync(jobDirectory, { recursive: true });

  const controller = new AbortController();
  return {
    root,
    main,
    workspace,
    binDirectory,
    home,
    evidence,
    jobDirectory,
    git,
    read: (relativePath) => readFileSync(path.join(workspace, relativePath), 'utf8'),
    abortSignal: controller.signal,
    cleanup: () => {
      controller.abort();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
