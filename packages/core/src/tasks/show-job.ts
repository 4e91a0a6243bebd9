import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type JobState, type JobTask, jobPaths, readJobState, readJobTask } from '../jobs/index.js';
import { openTaskScope, type TaskCommandOptions } from './task-scope.js';

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

/** Reads a job's state, request, transcript location and gate files. */
export async function showJob(options: TaskCommandOptions & { jobId: string }): Promise<JobDetails> {
  const scope = await openTaskScope(options);
  const state = readJobState(scope.repositoryRoot, options.jobId);
  const task = readJobTask(scope.repositoryRoot, options.jobId);
  const paths = jobPaths(scope.repositoryRoot, options.jobId);
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
