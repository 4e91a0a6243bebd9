import { closeSync, mkdirSync, openSync } from 'node:fs';
import { hostname } from 'node:os';
import { processStartTimeMs, withFileLock } from '@snodo/foundation';
import { JobIdUnusableError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { createJobId, isJobId } from './job-id.js';
import { type JobPaths, jobPaths, jobsDirectory } from './job-paths.js';
import { type JobState, type JobTask, jobStateSchema } from './job-state.js';
import { readJobState } from './read-job-files.js';
import { markJobRunning, unmarkJobRunning } from './running-jobs-index.js';

// Reading lives in `read-job-files.ts` (no zod); these are the writers, which validate with the zod schema.
export { listJobs, readJobState, readJobTask } from './read-job-files.js';

/** A job's id, paths and the state it was created with. */
export interface CreatedJob {
  readonly jobId: string;
  readonly paths: JobPaths;
  readonly state: JobState;
}

function serialise(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Creates `.snodo/jobs/<id>/` with `task.json` and a first `state.json`. The directory is created
 * exclusively, so two processes can never share an id: on the (astronomically rare) collision a new id
 * is drawn.
 */
export function createJob(options: {
  repositoryRoot: string;
  task: string;
  cwd: string;
  requestOptions: Record<string, unknown>;
  now?: Date;
  /** An id the caller allocated (`createJobId`) and may already have made the directory for. */
  jobId?: string | undefined;
}): CreatedJob {
  mkdirSync(jobsDirectory(options.repositoryRoot), { recursive: true });
  const createdAt = (options.now ?? new Date()).toISOString();
  for (let tries = 0; ; tries += 1) {
    const jobId = options.jobId ?? createJobId();
    const paths = jobPaths(options.repositoryRoot, jobId);
    if (options.jobId !== undefined) {
      claimChosenJobId(paths, jobId);
    } else {
      try {
        mkdirSync(paths.directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST' && tries < 10) continue;
        throw error;
      }
    }
    mkdirSync(paths.gates, { recursive: true });
    const task: JobTask = {
      version: 1,
      jobId,
      task: options.task,
      createdAt,
      cwd: options.cwd,
      options: options.requestOptions,
    };
    writeFileAtomic(paths.task, serialise(task));
    const state: JobState = {
      version: 1,
      jobId,
      status: 'running',
      task: options.task,
      createdAt,
      updatedAt: createdAt,
      process: {
        pid: process.pid,
        hostname: hostname(),
        startedAt: createdAt,
        startTimeMs: processStartTimeMs(process.pid),
      },
      stages: {},
      usage: {},
      verdicts: [],
      attempts: [],
      decisions: [],
    };
    markJobRunning(options.repositoryRoot, jobId);
    writeFileAtomic(paths.state, serialise(state));
    return { jobId, paths, state };
  }
}

/**
 * Takes a caller's job id: its directory may exist already (`snodo run --background` makes it to hold the
 * detached process's output), but no job may have been created in it. `task.json` is created exclusively,
 * so two processes given the same id cannot both start.
 */
function claimChosenJobId(paths: JobPaths, jobId: string): void {
  if (!isJobId(jobId)) {
    throw new JobIdUnusableError({
      jobId,
      reason: 'a job id is `j_` and 6 to 32 lowercase letters or digits',
    });
  }
  mkdirSync(paths.directory, { recursive: true });
  try {
    closeSync(openSync(paths.task, 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new JobIdUnusableError({ jobId, reason: 'a job with this id already exists' });
  }
}

/**
 * Read-modify-write of `state.json` under the job's lock, written atomically. Several writers touch a job
 * (the run itself, `snodo task approve` in another terminal, reconciliation), so every write goes here, and
 * with it the running-jobs index (`running-jobs-index.ts`).
 */
export async function updateJobState(
  repositoryRoot: string,
  jobId: string,
  mutate: (state: JobState) => JobState | undefined,
): Promise<JobState> {
  const paths = jobPaths(repositoryRoot, jobId);
  return withFileLock(
    paths.stateLock,
    () => {
      const current = readJobState(repositoryRoot, jobId);
      const next = mutate(structuredClone(current)) ?? current;
      const stamped = jobStateSchema.parse({ ...next, updatedAt: new Date().toISOString() });
      // The running-jobs index names a running job from before its state says so until after it no longer does.
      const wasRunning = current.status === 'running';
      const isRunning = stamped.status === 'running';
      if (isRunning && !wasRunning) markJobRunning(repositoryRoot, jobId);
      writeFileAtomic(paths.state, serialise(stamped));
      if (wasRunning && !isRunning) unmarkJobRunning(repositoryRoot, jobId);
      return stamped;
    },
    { purpose: `update of job ${jobId}'s state` },
  );
}
