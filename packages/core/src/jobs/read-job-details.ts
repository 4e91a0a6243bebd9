import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jobPaths } from './job-paths.js';
import type { JobState, JobTask } from './job-state.js';
import { readJobState, readJobTask } from './read-job-files.js';

/** Everything recorded about one job, for `snodo task show` and `snodo meta`. */
export interface JobDetails {
  readonly state: JobState;
  readonly task: JobTask;
  readonly transcriptPath: string;
  /** Size of the transcript in bytes; 0 when the coder wrote none. */
  readonly transcriptBytes: number;
  /** Files under `gates/`, one per verdict, in the order written. */
  readonly gateFiles: readonly string[];
}

/** Reads a job's state, request, transcript location and gate files from the repository's `.snodo/jobs/`. */
export function readJobDetails(repositoryRoot: string, jobId: string): JobDetails {
  const state = readJobState(repositoryRoot, jobId);
  const task = readJobTask(repositoryRoot, jobId);
  const paths = jobPaths(repositoryRoot, jobId);
  const gateFiles = existsSync(paths.gates)
    ? readdirSync(paths.gates)
        .sort()
        .map((name) => join(paths.gates, name))
    : [];
  return {
    state,
    task,
    transcriptPath: paths.transcript,
    transcriptBytes: existsSync(paths.transcript) ? statSync(paths.transcript).size : 0,
    gateFiles,
  };
}
