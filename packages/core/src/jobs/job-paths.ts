import { join } from 'node:path';

/** Where a job's files live: `.snodo/jobs/<id>/` in the main checkout. */
export interface JobPaths {
  readonly directory: string;
  /** The request as given (`task.json`). */
  readonly task: string;
  /** Status, timings, coder, models, usage, verdicts, outcome (`state.json`). */
  readonly state: string;
  /** Serialises writers of `state.json`. */
  readonly stateLock: string;
  /** The coder's output, capped (`transcript.log`). */
  readonly transcript: string;
  /** The instructions handed to the coder (`instructions.md`). */
  readonly instructions: string;
  /** One JSON file per gate verdict, with its evidence (`gates/`). */
  readonly gates: string;
  /** The job's private HOME (`home/`): the only HOME the coder and command gates see. */
  readonly home: string;
  /** The coder's own state (`coder/`): a CLI's config home, its session logs. Writable in the sandbox. */
  readonly coderState: string;
  /** The job's private `/tmp` inside the sandbox (`tmp/`), emptied when the job ends. */
  readonly tmp: string;
}

/** The `.snodo/` runtime directory of a repository's main checkout. */
export function snodoDirectory(repositoryRoot: string): string {
  return join(repositoryRoot, '.snodo');
}

/** The directory holding every job of a repository. */
export function jobsDirectory(repositoryRoot: string): string {
  return join(snodoDirectory(repositoryRoot), 'jobs');
}

/** The paths of one job. */
export function jobPaths(repositoryRoot: string, jobId: string): JobPaths {
  const directory = join(jobsDirectory(repositoryRoot), jobId);
  return {
    directory,
    task: join(directory, 'task.json'),
    state: join(directory, 'state.json'),
    stateLock: join(directory, 'state.json.lock'),
    transcript: join(directory, 'transcript.log'),
    instructions: join(directory, 'instructions.md'),
    gates: join(directory, 'gates'),
    home: join(directory, 'home'),
    coderState: join(directory, 'coder'),
    tmp: join(directory, 'tmp'),
  };
}
