import { closeSync, existsSync, mkdirSync, openSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withFileLock } from '@snodo/foundation';
import { isJobId } from './job-id.js';
import { jobPaths, snodoDirectory } from './job-paths.js';
import type { JobState } from './job-state.js';
import { listJobs, readJobState } from './read-job-files.js';

// Every `snodo run` starts by looking for jobs a dead process left `running` (SPEC §2). Reading every
// job's `state.json` for that made a run's start-up grow with the repository's history: 2,000 past jobs
// added ~130 ms to every run. This index names the jobs that may be running, so a start reads those only.
//
// `.snodo/running-jobs/<job id>`: an empty file, made before a job's first `running` state is written and
// removed after a state that is not `running` is, both under the job's state lock (`job-store.ts`), so a job can be running without its
// file only for a process that was not this version of snodo. A crash between the two steps leaves a file
// too many, which the next start removes; never one too few. `.complete` says the index covers the
// repository's older jobs too: until a start has scanned them all once (a repository of an earlier snodo),
// starts scan every job. Beside `jobs/`, not in it: every entry of `.snodo/jobs/` is a job, for snodo's
// listings and for anyone's scripts. Its own `.gitignore` (`*`) keeps it out of `git status` whichever
// command makes it first, with no new line in `info/exclude` (which a running job's guard watches).
//
// NOTE: a job started or resumed by an earlier snodo once the index is complete has no name in it: a start
// does not reconcile it, `snodo task list` (which reads every job) still does.

const COMPLETE = '.complete';

function indexDirectory(repositoryRoot: string): string {
  return join(snodoDirectory(repositoryRoot), 'running-jobs');
}

function touch(path: string): void {
  closeSync(openSync(path, 'a'));
}

/** Records that `jobId` may be running: before the `running` state is written. */
export function markJobRunning(repositoryRoot: string, jobId: string): void {
  touch(join(openIndex(repositoryRoot), jobId));
}

/**
 * Forgets `jobId`: after a state that is not `running` is written. A name that cannot be removed is one too
 * many, which the next start removes: the state written before it stands.
 */
export function unmarkJobRunning(repositoryRoot: string, jobId: string): void {
  try {
    unlinkSync(join(indexDirectory(repositoryRoot), jobId));
  } catch {
    // Already gone, or left for the next start.
  }
}

/** The index directory, made with its `.gitignore` if need be. */
function openIndex(repositoryRoot: string): string {
  const directory = indexDirectory(repositoryRoot);
  const ignore = join(directory, '.gitignore');
  if (!existsSync(ignore)) {
    mkdirSync(directory, { recursive: true });
    writeFileSync(ignore, '# snodo runtime files: the jobs that may be running\n*\n');
  }
  return directory;
}

/**
 * The jobs whose state may say `running`, newest first: those the index names (a stale name, whose job no
 * longer runs, is removed on the way), or every job while the index is not complete, after which it is.
 */
export async function listPossiblyRunningJobs(repositoryRoot: string): Promise<JobState[]> {
  const directory = indexDirectory(repositoryRoot);
  if (!existsSync(join(directory, COMPLETE))) {
    const every = listJobs(repositoryRoot);
    for (const job of every) if (job.status === 'running') markJobRunning(repositoryRoot, job.jobId);
    touch(join(openIndex(repositoryRoot), COMPLETE));
    return every;
  }
  const states: JobState[] = [];
  for (const name of readdirSync(directory)) {
    if (!isJobId(name)) continue;
    let state: JobState | undefined;
    try {
      state = readJobState(repositoryRoot, name);
    } catch {
      // Its directory gone (removed by hand, a background start that failed): the name goes. Otherwise being
      // created right now (the directory and its name come before its state) or damaged: left for `task list`.
      if (!existsSync(jobPaths(repositoryRoot, name).directory)) unmarkJobRunning(repositoryRoot, name);
      continue;
    }
    if (state.status === 'running') {
      states.push(state);
      continue;
    }
    // Under the job's lock, as it is marked: a job resumed meanwhile (`snodo task approve`) keeps its name.
    await withFileLock(
      jobPaths(repositoryRoot, name).stateLock,
      () => {
        if (readJobState(repositoryRoot, name).status !== 'running') unmarkJobRunning(repositoryRoot, name);
      },
      { purpose: `the running-jobs index entry of job ${name}` },
    ).catch(() => undefined);
  }
  return states.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
