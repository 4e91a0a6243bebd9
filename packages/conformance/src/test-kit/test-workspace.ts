/*
 * `@snodo/conformance/testing`: a plain repository with one commit, a bin directory for fake executables and
 * a job directory, plus requests shaped the way core sends them. For an adapter's own unit tests.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CoderV1Event, CoderV1Request } from '@snodo/coder-sdk';

/** A repository with one commit, a bin directory, and a job directory outside the repository. */
export interface TestWorkspace {
  readonly root: string;
  /** The repository the coder runs in (`request.workspace`). */
  readonly workspace: string;
  /** Put fake executables here; it is first on the request's PATH. */
  readonly binDirectory: string;
  /** The request's HOME. */
  readonly home: string;
  /** Where the transcript goes. */
  readonly transcriptPath: string;
  /** The job's coder state directory (`request.stateDirectory`), beside the transcript; not created. */
  readonly stateDirectory: string;
  /** Events the adapter emitted through `request.emit`. */
  readonly events: CoderV1Event[];
  /** Runs git in the repository and returns stdout. */
  git(args: readonly string[]): string;
  /** Writes an executable node script `<binDirectory>/<name>`. */
  writeExecutable(name: string, source: string): string;
  /** A request for one attempt; `env` entries are added to PATH and HOME. */
  request(
    overrides?: Partial<Omit<CoderV1Request, 'env'>> & { env?: Record<string, string> },
  ): CoderV1Request;
  /** Stops a coder still running and removes everything. */
  cleanup(): void;
}

/** Git sees no global or system configuration in this test process, so the machine's settings never leak. */
function isolateGit(root: string): void {
  const globalConfig = path.join(root, 'gitconfig');
  writeFileSync(globalConfig, '');
  process.env.GIT_CONFIG_GLOBAL = globalConfig;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
}

/** Creates the repository (README.md, src/app.txt) in a fresh temporary directory. */
export function createTestWorkspace(): TestWorkspace {
  const root = mkdtempSync(path.join(os.tmpdir(), 'snodo-coder-test-'));
  isolateGit(root);
  const workspace = path.join(root, 'repo');
  const binDirectory = path.join(root, 'bin');
  const home = path.join(root, 'home');
  const jobDirectory = path.join(root, 'job');
  for (const directory of [workspace, binDirectory, home, jobDirectory, path.join(workspace, 'src')]) {
    mkdirSync(directory, { recursive: true });
  }
  const identity = {
    GIT_AUTHOR_NAME: 'Setup',
    GIT_AUTHOR_EMAIL: 'setup@example.com',
    GIT_COMMITTER_NAME: 'Setup',
    GIT_COMMITTER_EMAIL: 'setup@example.com',
  };
  const git = (args: readonly string[]) =>
    execFileSync('git', [...args], {
      cwd: workspace,
      encoding: 'utf8',
      env: { ...process.env, ...identity },
    });
  git(['init', '-q', '-b', 'main']);
  writeFileSync(path.join(workspace, 'README.md'), '# Demo\n');
  writeFileSync(path.join(workspace, 'src', 'app.txt'), 'first\n');
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'initial']);

  const controller = new AbortController();
  const events: CoderV1Event[] = [];
  const transcriptPath = path.join(jobDirectory, 'transcript.log');
  const stateDirectory = path.join(jobDirectory, 'coder');
  return {
    root,
    workspace,
    binDirectory,
    home,
    transcriptPath,
    stateDirectory,
    events,
    git,
    writeExecutable(name, source) {
      const file = path.join(binDirectory, name);
      writeFileSync(file, `#!/usr/bin/env node\n${source}`);
      chmodSync(file, 0o755);
      return file;
    },
    request(overrides = {}) {
      const { env, ...rest } = overrides;
      return {
        jobId: 'j_test1',
        attempt: 1,
        task: 'Add a greeting',
        prompt: 'Add a greeting to hello.txt',
        workspace,
        model: undefined,
        env: { PATH: `${binDirectory}:${process.env.PATH ?? ''}`, HOME: home, ...env },
        timeoutMs: 30_000,
        abortSignal: controller.signal,
        instructions: 'Follow the house rules. SNODO-TEST-INSTRUCTIONS\n',
        instructionsPath: path.join(jobDirectory, 'instructions.md'),
        transcriptPath,
        stateDirectory,
        coderConfig: {},
        emit: (event) => events.push(event),
        ...rest,
      };
    },
    cleanup() {
      controller.abort();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
