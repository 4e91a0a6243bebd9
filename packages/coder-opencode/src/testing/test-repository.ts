/**
 * Test support (not exported, not built): a real git repository with a linked task worktree, laid out as
 * core lays out a run, and the request core would send the `opencode` coder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCoderEnvironment, type CoderV1Event, type CoderV1Request } from '@snodo/coder-sdk';

/**
 * Points git at an empty global config and no system config for this test file (vitest runs each file in
 * its own process), so the machine's identity, hooks or signing never leak in. Returns the teardown.
 */
export function isolateGitConfiguration(): () => void {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-opencode-gitconfig-'));
  const globalConfig = path.join(directory, 'gitconfig');
  writeFileSync(globalConfig, '');
  process.env.GIT_CONFIG_GLOBAL = globalConfig;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  return () => rmSync(directory, { recursive: true, force: true });
}

/** A repository, its worktree and the directories around them. */
export interface TestRepository {
  readonly root: string;
  readonly main: string;
  /** The linked worktree on `snodo/j_test1` (`request.workspace`). */
  readonly workspace: string;
  /** Put first on the coder's PATH; fake executables go here. */
  readonly binDirectory: string;
  readonly home: string;
  readonly jobDirectory: string;
  /** The commit the worktree starts on. */
  readonly startCommit: string;
  /** Runs git (in the worktree by default) and returns stdout. */
  git(args: readonly string[], cwd?: string): string;
  read(relativePath: string): string;
  /** Aborted by `cleanup`. */
  readonly abortController: AbortController;
  cleanup(): void;
}

/** Creates the repository: README.md and .snodo/protocol.yml committed, job files excluded. */
export function createTestRepository(): TestRepository {
  const root = mkdtempSync(path.join(os.tmpdir(), 'snodo-opencode-test-'));
  const main = path.join(root, 'main');
  const workspace = path.join(root, 'workspace');
  const binDirectory = path.join(root, 'bin');
  const home = path.join(root, 'home');
  for (const directory of [main, binDirectory, home]) mkdirSync(directory, { recursive: true });
  const identity = {
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
  };
  const git = (args: readonly string[], cwd = workspace) =>
    execFileSync('git', [...args], { cwd, encoding: 'utf8', env: { ...process.env, ...identity } });
  git(['init', '-q', '-b', 'main'], main);
  mkdirSync(path.join(main, '.snodo'));
  writeFileSync(path.join(main, 'README.md'), '# Demo\n');
  writeFileSync(path.join(main, '.snodo', 'protocol.yml'), 'protocol_id: demo\nmodes: []\n');
  git(['add', '-A'], main);
  git(['commit', '-q', '-m', 'initial'], main);
  writeFileSync(path.join(main, '.git', 'info', 'exclude'), '/.snodo/jobs/\n');
  git(['worktree', 'add', '-q', '-b', 'snodo/j_test1', workspace], main);
  const jobDirectory = path.join(main, '.snodo', 'jobs', 'j_test1');
  mkdirSync(jobDirectory, { recursive: true });
  const abortController = new AbortController();
  return {
    root,
    main,
    workspace,
    binDirectory,
    home,
    jobDirectory,
    startCommit: git(['rev-parse', 'HEAD']).trim(),
    git,
    read: (relativePath) => readFileSync(path.join(workspace, relativePath), 'utf8'),
    abortController,
    cleanup: () => {
      abortController.abort(new Error('the test ended'));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A request for the `opencode` coder in `repository`; every emitted event lands in `events`. */
export function makeRequest(
  repository: TestRepository,
  overrides: Partial<CoderV1Request> & { parentEnv?: Record<string, string | undefined> } = {},
): CoderV1Request & { events: CoderV1Event[] } {
  const events: CoderV1Event[] = [];
  const { parentEnv, ...rest } = overrides;
  return {
    jobId: 'j_test1',
    attempt: 1,
    task: 'Add a greeting\n\nWith detail below.',
    prompt: '# Task\n\nAdd a greeting to hello.txt.\n',
    workspace: repository.workspace,
    model: undefined,
    env: buildCoderEnvironment({
      parentEnv: {
        ...(parentEnv ?? process.env),
        PATH: `${repository.binDirectory}${path.delimiter}${process.env.PATH ?? ''}`,
      },
      credentials: {},
      homeDirectory: repository.home,
    }),
    timeoutMs: 20_000,
    abortSignal: repository.abortController.signal,
    instructions: '# snodo instructions\n\nStay in the worktree.\n',
    instructionsPath: path.join(repository.jobDirectory, 'instructions.md'),
    transcriptPath: path.join(repository.jobDirectory, 'transcript.log'),
    homeDirectory: repository.home,
    coderConfig: {},
    emit: (event) => events.push(event),
    ...rest,
    events,
  };
}
