/*
 * `@snodo/conformance/testing`: a real repository with a linked task worktree, a private HOME and a job
 * directory, laid out the way core lays out a run, plus the request core would send. For an adapter's own
 * unit tests beside its conformance run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCoderEnvironment, type CoderV1Event, type CoderV1Request } from '@snodo/coder-sdk';

/** A repository, its task worktree and the directories around them. */
export interface TemporaryRun {
  readonly root: string;
  readonly main: string;
  readonly workspace: string;
  readonly home: string;
  readonly binDirectory: string;
  readonly jobDirectory: string;
  readonly transcriptPath: string;
  /** The job's coder state directory (`.snodo/jobs/j_test1/coder`), `request.stateDirectory`; not created. */
  readonly stateDirectory: string;
  readonly events: CoderV1Event[];
  /** Runs git in `cwd` (default: the worktree) and returns stdout. */
  git(args: readonly string[], cwd?: string): string;
  /** The request core would send, with `credentials` injected into the allow-listed environment. */
  request(options: {
    credentials: Record<string, string>;
    parentEnv?: Record<string, string | undefined>;
    overrides?: Partial<CoderV1Request>;
  }): CoderV1Request;
  cleanup(): void;
}

const identity = {
  GIT_AUTHOR_NAME: 'Setup',
  GIT_AUTHOR_EMAIL: 'setup@example.com',
  GIT_COMMITTER_NAME: 'Setup',
  GIT_COMMITTER_EMAIL: 'setup@example.com',
};

/**
 * Points this test process's git at an empty global config and no system config, so the machine's own git
 * settings never leak into a test. Returns the teardown.
 */
export function isolateGitConfiguration(): () => void {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-gitconfig-'));
  const globalConfig = path.join(directory, 'gitconfig');
  writeFileSync(globalConfig, '');
  process.env.GIT_CONFIG_GLOBAL = globalConfig;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  return () => rmSync(directory, { recursive: true, force: true });
}

/** Creates the repository (one commit, `README.md`) and its worktree on `snodo/j_test1`. */
export function createTemporaryRun(): TemporaryRun {
  const root = mkdtempSync(path.join(os.tmpdir(), 'snodo-coder-test-'));
  const main = path.join(root, 'main');
  const workspace = path.join(root, 'worktree');
  const home = path.join(root, 'home');
  const binDirectory = path.join(root, 'bin');
  for (const directory of [main, home, binDirectory]) mkdirSync(directory);
  const git = (args: readonly string[], cwd = workspace) =>
    execFileSync('git', args, {
      cwd,
      env: { ...process.env, ...identity },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  git(['init', '-q', '-b', 'main'], main);
  writeFileSync(path.join(main, 'README.md'), '# sample\n');
  git(['add', '-A'], main);
  git(['commit', '-q', '-m', 'initial'], main);
  git(['worktree', 'add', '-q', '-b', 'snodo/j_test1', workspace], main);
  const jobDirectory = path.join(main, '.snodo', 'jobs', 'j_test1');
  mkdirSync(jobDirectory, { recursive: true });
  const transcriptPath = path.join(jobDirectory, 'transcript.log');
  const stateDirectory = path.join(jobDirectory, 'coder');
  const events: CoderV1Event[] = [];
  const controller = new AbortController();
  return {
    root,
    main,
    workspace,
    home,
    binDirectory,
    jobDirectory,
    transcriptPath,
    stateDirectory,
    events,
    git,
    request({ credentials, parentEnv = process.env, overrides = {} }) {
      const env = buildCoderEnvironment({
        parentEnv: { ...parentEnv, PATH: `${binDirectory}${path.delimiter}${parentEnv.PATH ?? ''}` },
        credentials,
        homeDirectory: home,
      });
      return {
        jobId: 'j_test1',
        attempt: 1,
        task: 'Add a greeting\n\nDetails stay out of the subject.',
        prompt: 'Add a greeting file.',
        workspace,
        model: undefined,
        env,
        timeoutMs: 30_000,
        abortSignal: controller.signal,
        instructions: '# Instructions from snodo\n\ninstructions-marker-7f3a\n',
        instructionsPath: path.join(jobDirectory, 'instructions.md'),
        transcriptPath,
        stateDirectory,
        homeDirectory: home,
        coderConfig: {},
        emit: (event) => events.push(event),
        ...overrides,
      };
    },
    cleanup() {
      controller.abort();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
