import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { processStartTimeMs, withFileLock } from '@snodo/foundation';
import { JobNotFoundError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { createJobId, isJobId } from './job-id.js';
import { type JobPaths, jobPaths, jobsDirectory } from './job-paths.js';
import { type JobState, type JobTask, jobStateSchema, jobTaskSchema } from './job-state.js';

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
}): CreatedJob {
  mkdirSync(jobsDirectory(options.repositoryRoot), { recursive: true });
  const createdAt = (options.now ?? new Date()).toISOString();
  for (let tries = 0; ; tries += 1) {
    const jobId = createJobId();
    const paths = jobPaths(options.repositoryRoot, jobId);
    try {
      mkdirSync(paths.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && tries < 10) continue;
      throw error;
    }
    mkdirSync(paths.gates);
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
    writeFileAtomic(paths.state, serialise(state));
    return { jobId, paths, state };
  }
}

/** Reads and validates a job's `state.json`; a missing or malformed job is `JOB_NOT_FOUND`. */
export function readJobState(repositoryRoot: string, jobId: string): JobState {
  if (!isJobId(jobId)) throw new JobNotFoundError({ jobId, repositoryRoot });
  const paths = jobPaths(repositoryRoot, jobId);
  let text: string;
  try {
    text = readFileSync(paths.state, 'utf8');
  } catch (cause) {
    throw new JobNotFoundError({ jobId, repositoryRoot, cause });
  }
  return jobStateSchema.parse(JSON.parse(text));
}

/** Reads a job's `task.json`. */
export function readJobTask(repositoryRoot: string, jobId: string): JobTask {
  if (!isJobId(jobId)) throw new JobNotFoundError({ jobId, repositoryRoot });
  try {
    return jobTaskSchema.parse(JSON.parse(readFileSync(jobPaths(repositoryRoot, jobId).task, 'utf8')));
  } catch (cause) {
    throw new JobNotFoundError({ jobId, repositoryRoot, cause });
  }
}

/**
 * Read-modify-write of `state.json` under the job's lock, written atomically. Several writers touch a job
 * (the run itself, `snodo task approve` in another terminal, reconciliation), so every write goes here.
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
      writeFileAtomic(paths.state, serialise(stamped));
      return stamped;
    },
    { purpose: `update of job ${jobId}'s state` },
  );
}

/** Every job of the repository whose state could be read, newest first. Unreadable ones are skipped. */
export function listJobs(repositoryRoot: string): JobState[] {
  const directory = jobsDirectory(repositoryRoot);
  if (!existsSync(directory)) return [];
  const states: JobState[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (!entry.isDirectory() || !isJobId(entry.name)) continue;
    try {
      states.push(readJobState(repositoryRoot, entry.name));
    } catch {
      // A job directory without a readable state (being created right now, or damaged) is not listed.
    }
  }
  return states.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
