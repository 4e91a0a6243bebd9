import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ensureRuntimeExclusions, jobPaths, jobsDirectory, openProject, planTask } from '@snodo/core';
import { createJobId, writeFileAtomic } from '@snodo/core/jobs';
import { builtInCoders } from '../coders/built-in-coders.js';
import { taskRequestFromFlags } from '../commands/run/run-action.js';
import { CliError } from '../errors/cli-error.js';
import { backgroundEnvironment } from './background-environment.js';
import {
  type BackgroundRequest,
  type BackgroundRunFlags,
  backgroundLogPath,
  backgroundRequestPath,
} from './background-request.js';

/** What `startBackgroundRun` is given: the task and the flags `snodo run` would take, and where. */
export interface BackgroundRunOptions {
  readonly task: string;
  /** A directory inside the repository. */
  readonly cwd: string;
  /** The environment the run reads keys and `SNODO_HOME` from (filtered by an allow-list). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory: string;
  readonly flags?: BackgroundRunFlags | undefined;
  /** Who started it, for the audit log. Default: the OS user. */
  readonly actor?: string | undefined;
}

/** A started background run. */
export interface BackgroundRun {
  readonly jobId: string;
  /** The detached process running the job (`state.json`'s `process.pid`). */
  readonly pid: number;
  /** Its output: the progress of the run as `snodo run` prints it, and the summary. */
  readonly logs: string;
}

/** How long the detached process may take to create its job before the start counts as failed. */
const START_TIMEOUT_MS = 60_000;

/** The `snodo` executable next to this module: `dist/cli.js` of the package this file belongs to. */
function cliExecutable(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) {
      const { name } = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (name === 'snodo') return join(directory, 'dist', 'cli.js');
    }
    const parent = dirname(directory);
    if (parent === directory) throw new Error('The snodo package directory was not found.');
    directory = parent;
  }
}

/** Reserves a new job id by making its directory exclusively. */
function reserveJobDirectory(repositoryRoot: string): { jobId: string; directory: string } {
  mkdirSync(jobsDirectory(repositoryRoot), { recursive: true });
  for (let tries = 0; ; tries += 1) {
    const jobId = createJobId();
    const { directory } = jobPaths(repositoryRoot, jobId);
    try {
      mkdirSync(directory);
      return { jobId, directory };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || tries >= 10) throw error;
    }
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-12).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts a run detached from the caller (`snodo run --background`, the MCP server's tool): the refusals a
 * foreground run makes before a job exists (empty task, dirty tree, unknown coder, a model nothing
 * configures, a coder that cannot run) are thrown here, in the caller, with the run's own errors; then a
 * `snodo` process in a session of its own (so the terminal's SIGHUP never reaches it), stdin closed,
 * stdout and stderr to `output.log` in the job's directory and an environment from an allow-list, runs the
 * task under the id reserved here. Resolves once that process has created the job, so `snodo job wait
 * <id>` works the moment the id is printed.
 */
export async function startBackgroundRun(options: BackgroundRunOptions): Promise<BackgroundRun> {
  const flags = options.flags ?? {};
  const project = await openProject({
    cwd: options.cwd,
    env: options.env,
    homeDirectory: options.homeDirectory,
    coders: builtInCoders,
    strict: flags.strict === true,
  });
  const plan = await planTask(project, taskRequestFromFlags(options.task, flags));
  if (plan.missingModels !== undefined) throw plan.missingModels;
  if (plan.missingCredentials !== undefined) throw plan.missingCredentials;
  if (!plan.coderStatus.ready) {
    throw new CliError('BACKGROUND_START_FAILED', {
      message: `${plan.coderStatus.displayName} cannot run here: ${plan.coderStatus.reason ?? 'not ready'}.`,
      fix: plan.coderStatus.fix ?? 'snodo coders',
    });
  }
  const repository = project.repository;
  if (repository === undefined) throw new Error('planTask succeeded outside a git repository.');
  // The job's directory is made before the run, so it must be excluded before the run checks the tree.
  ensureRuntimeExclusions(repository.gitCommonDirectory);
  const { jobId, directory } = reserveJobDirectory(repository.root);
  const request: BackgroundRequest = {
    version: 1,
    jobId,
    task: plan.task,
    cwd: options.cwd,
    flags,
    ...(options.actor === undefined ? {} : { actor: options.actor }),
  };
  // Durable and private: the request holds the task text, and the detached process reads it after this one
  // may be gone.
  writeFileAtomic(backgroundRequestPath(directory), `${JSON.stringify(request, null, 2)}\n`, 0o600, {
    durable: true,
  });
  const logs = backgroundLogPath(directory);
  const output = openSync(logs, 'a', 0o600);
  const credentialNames = [
    ...plan.coderStatus.credentialVariables,
    ...Object.values(project.config.providers ?? {}).flatMap((provider) => provider.api_key_env ?? []),
    ...Object.values(project.config.coders ?? {}).flatMap((coder) => coder.api_key_env ?? []),
  ];
  let child: ReturnType<typeof spawn>;
  try {
    // NOTE: `detached` makes the child a session leader (setsid): a closed terminal's SIGHUP goes to the
    // terminal's session, not to this one. Not the supervisor: it kills its children when its caller ends.
    child = spawn(process.execPath, [cliExecutable(), '--verbose', 'job', 'run-detached', jobId], {
      cwd: options.cwd,
      env: backgroundEnvironment(options.env, credentialNames),
      detached: true,
      stdio: ['ignore', output, output],
    });
  } finally {
    closeSync(output);
  }
  const pid = child.pid;
  if (pid === undefined) {
    throw new CliError('BACKGROUND_START_FAILED', {
      message: `The background process for ${jobId} did not start.`,
      fix: `cat ${logs}`,
    });
  }
  let exited: number | null | undefined;
  child.on('exit', (code, signal) => {
    exited = code ?? (signal === null ? -1 : 128);
  });
  child.on('error', () => {
    exited ??= -1;
  });
  const state = jobPaths(repository.root, jobId).state;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!existsSync(state)) {
    if (exited !== undefined || Date.now() > deadline) {
      if (exited === undefined) process.kill(-pid, 'SIGKILL');
      const output = tail(logs);
      // No job came of it: the reserved directory would only be clutter; what it printed is in the error.
      rmSync(directory, { recursive: true, force: true });
      throw new CliError('BACKGROUND_START_FAILED', {
        message:
          `The background run ${jobId} ended before its job existed` +
          (exited === undefined ? ` (no job after ${START_TIMEOUT_MS / 1000}s)` : ` (exit ${exited})`) +
          (output === '' ? '.' : `:\n${output}`),
        fix: 'Run the same command without --background to see the run in the foreground.',
      });
    }
    await sleep(25);
  }
  child.unref();
  return { jobId, pid, logs };
}
