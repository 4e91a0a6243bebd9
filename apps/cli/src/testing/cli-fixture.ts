import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa, type Result } from 'execa';

// Test support only: a temporary git repository with a private HOME and $SNODO_HOME, and the BUILT
// `snodo` binary run in it as a child process, exactly as a user runs it.

/** The built binary under test. `pnpm test` builds first; a single vitest run needs `pnpm --filter snodo build`. */
export const SNODO_BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

/** A protocol small enough to read in a test: one judge before, one judge and one command gate after. */
export const TEST_PROTOCOL = `protocol_id: test
name: Test protocol
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [task-review, security, tests]
validators:
  - validator_id: task-review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    criteria: [No credentials are added.]
  - validator_id: tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling:
      test_command: [node, -e, "process.exit(0)"]
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
`;

/** What `snodo(…)` returns: execa's result, never rejecting on a non-zero exit. */
export type SnodoResult = Result<{ reject: false; all: true }>;

/** A temporary repository and the snodo binary to run in it. */
export interface CliFixture {
  /** The parent temporary directory (removed by `cleanup`). */
  readonly directory: string;
  /** The repository's main checkout. */
  readonly root: string;
  /** The private `$SNODO_HOME`. */
  readonly snodoHome: string;
  /** The private `HOME`. */
  readonly home: string;
  /** The environment every command of this fixture runs with. */
  readonly env: Record<string, string>;
  /** Runs `snodo <args>` in the repository (or `options.cwd`). */
  snodo(
    args: readonly string[],
    options?: { cwd?: string; env?: Record<string, string | undefined>; input?: string },
  ): Promise<SnodoResult>;
  /** Runs git in the repository and returns its trimmed stdout. */
  git(args: readonly string[], cwd?: string): string;
  /** Writes a file relative to the repository root. */
  write(relativePath: string, content: string): void;
  /** Stages and commits everything; returns the commit id. */
  commitAll(message: string): string;
  /** Writes `$SNODO_HOME/config.yml` (mode 0600). */
  writeConfig(text: string): void;
  /** Removes the repository, its worktrees and the private homes. */
  cleanup(): void;
}

/** What a fixture starts with. */
export interface CliFixtureOptions {
  /** The protocol to commit as `.snodo/protocol.yml`; `false` for none. Default `TEST_PROTOCOL`. */
  readonly protocol?: string | false;
  /** The initial branch. Default `main`. */
  readonly branch?: string;
  /** Create the repository at all (`false` for "not a git repository" tests). Default `true`. */
  readonly git?: boolean;
}

/** Fails early, with the fix, when the binary was not built. */
export function requireBuiltBinary(): void {
  if (!existsSync(SNODO_BIN)) {
    throw new Error(`${SNODO_BIN} does not exist: build the CLI first with \`pnpm --filter snodo build\`.`);
  }
}

/** A fresh repository with one commit (a README and, by default, the test protocol). */
export function createCliFixture(options: CliFixtureOptions = {}): CliFixture {
  requireBuiltBinary();
  const directory = mkdtempSync(join(tmpdir(), 'snodo-cli-'));
  const root = join(directory, 'repository');
  const snodoHome = join(directory, 'snodo-home');
  const home = join(directory, 'home');
  mkdirSync(root);
  mkdirSync(home);
  mkdirSync(snodoHome, { mode: 0o700 });
  const gitConfig = join(home, '.gitconfig');
  writeFileSync(gitConfig, '[user]\n\tname = Test User\n\temail = test@example.com\n');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SNODO_HOME: snodoHome,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: gitConfig,
    LANG: 'C.UTF-8',
    USER: 'tester',
    NO_COLOR: '1',
  };
  const git = (args: readonly string[], cwd = root) =>
    execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const write = (relativePath: string, content: string) => {
    mkdirSync(dirname(join(root, relativePath)), { recursive: true });
    writeFileSync(join(root, relativePath), content);
  };
  const commitAll = (message: string) => {
    git(['add', '--all']);
    git(['commit', '--quiet', '-m', message]);
    return git(['rev-parse', 'HEAD']);
  };
  if (options.git !== false) {
    git(['init', '--quiet', '--initial-branch', options.branch ?? 'main']);
    write('README.md', '# sample\n');
    if (options.protocol !== false) write('.snodo/protocol.yml', options.protocol ?? TEST_PROTOCOL);
    commitAll('initial');
  }

  return {
    directory,
    root,
    snodoHome,
    home,
    env,
    async snodo(args, runOptions = {}) {
      return execa(process.execPath, [SNODO_BIN, ...args], {
        cwd: runOptions.cwd ?? root,
        env: { ...env, ...runOptions.env },
        extendEnv: false,
        reject: false,
        all: true,
        ...(runOptions.input === undefined ? { stdin: 'ignore' } : { input: runOptions.input }),
        timeout: 60_000,
      }) as Promise<SnodoResult>;
    },
    git,
    write,
    commitAll,
    writeConfig(text) {
      writeFileSync(join(snodoHome, 'config.yml'), text, { mode: 0o600 });
    },
    cleanup() {
      if (existsSync(join(root, '.git'))) {
        const worktrees = git(['worktree', 'list', '--porcelain'])
          .split('\n')
          .filter((line) => line.startsWith('worktree '))
          .map((line) => line.slice('worktree '.length))
          .filter((path) => path !== root);
        for (const worktree of worktrees) rmSync(worktree, { recursive: true, force: true });
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Parses the one JSON document a `--json` command printed on stdout. */
export function parseJson(result: { readonly stdout: string }): unknown {
  return JSON.parse(result.stdout);
}
