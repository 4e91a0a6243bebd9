import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobPaths, jobsDirectory, snodoDirectory } from './job-paths.js';
import { createJob, readJobState, updateJobState } from './job-store.js';
import { reconcileInterruptedJobs } from './reconcile-jobs.js';
import { listPossiblyRunningJobs } from './running-jobs-index.js';

let repositoryRoot: string;
beforeEach(() => {
  repositoryRoot = mkdtempSync(join(tmpdir(), 'snodo-running-index-'));
});
afterEach(() => rmSync(repositoryRoot, { recursive: true, force: true }));

const index = (): string => join(snodoDirectory(repositoryRoot), 'running-jobs');
const named = (): string[] => readdirSync(index()).sort();
const newJob = (task: string) => createJob({ repositoryRoot, task, cwd: '/', requestOptions: {} });

/** Leaves `jobId` `running` under a process that has exited, as a crash does. */
async function crash(jobId: string): Promise<void> {
  const deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
  await updateJobState(repositoryRoot, jobId, (state) => {
    state.process.pid = deadPid;
    state.process.startTimeMs = undefined;
    return state;
  });
}

/** A job of an earlier snodo: its files only, nothing in the index. */
function plantJobWithoutIndex(jobId: string, status: 'running' | 'done'): void {
  const paths = jobPaths(repositoryRoot, jobId);
  mkdirSync(paths.directory, { recursive: true });
  const createdAt = new Date().toISOString();
  writeFileSync(
    paths.state,
    JSON.stringify({
      version: 1,
      jobId,
      status,
      task: 'older',
      createdAt,
      updatedAt: createdAt,
      process: {
        pid: spawnSync(process.execPath, ['-e', '']).pid,
        hostname: hostname(),
        startedAt: createdAt,
      },
      stages: {},
      usage: {},
      verdicts: [],
      attempts: [],
      decisions: [],
    }),
  );
}

describe('the running-jobs index', () => {
  it('names a job from its creation until a state that is not running, and again when it resumes', async () => {
    await listPossiblyRunningJobs(repositoryRoot); // a new repository: the index is complete at once
    const first = newJob('first');
    const second = newJob('second');
    expect(named()).toEqual(['.complete', first.jobId, second.jobId].sort());

    await updateJobState(repositoryRoot, first.jobId, (state) => ({ ...state, status: 'done' }));
    expect(named()).toEqual(['.complete', second.jobId].sort());
    expect((await listPossiblyRunningJobs(repositoryRoot)).map((job) => job.jobId)).toEqual([second.jobId]);

    // `snodo task approve` runs a kept job again: it is named again before its state says running.
    await updateJobState(repositoryRoot, first.jobId, (state) => ({ ...state, status: 'running' }));
    expect(named()).toContain(first.jobId);
  });

  it('lets a start find a crashed job among thousands of finished ones without reading them', async () => {
    await listPossiblyRunningJobs(repositoryRoot);
    const crashed = newJob('crashed');
    await crash(crashed.jobId);
    // Finished jobs whose state cannot even be parsed: a start that read them would skip them silently,
    // so what shows they are not read is that the listing holds the crashed job only.
    for (let index = 0; index < 2_000; index += 1) {
      const directory = jobPaths(repositoryRoot, `j_finished${String(index).padStart(6, '0')}`).directory;
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, 'state.json'), '{ not json');
    }
    const possiblyRunning = await listPossiblyRunningJobs(repositoryRoot);
    expect(possiblyRunning.map((job) => job.jobId)).toEqual([crashed.jobId]);

    const interrupted = await reconcileInterruptedJobs(repositoryRoot, possiblyRunning);
    expect(interrupted.map((job) => job.jobId)).toEqual([crashed.jobId]);
    expect(readJobState(repositoryRoot, crashed.jobId).status).toBe('interrupted');
    expect(named()).toEqual(['.complete']);
  });

  it('scans every job once in a repository of an earlier snodo, then only what the index names', async () => {
    plantJobWithoutIndex('j_oldcrashed1', 'running');
    plantJobWithoutIndex('j_oldfinished', 'done');
    expect(existsSync(index())).toBe(false);

    const firstStart = await listPossiblyRunningJobs(repositoryRoot);
    expect(firstStart.map((job) => job.jobId).sort()).toEqual(['j_oldcrashed1', 'j_oldfinished']);
    expect(named()).toEqual(['.complete', 'j_oldcrashed1']);
    await reconcileInterruptedJobs(repositoryRoot, firstStart);
    expect(readJobState(repositoryRoot, 'j_oldcrashed1').status).toBe('interrupted');
    expect(named()).toEqual(['.complete']);
    expect(await listPossiblyRunningJobs(repositoryRoot)).toEqual([]);
  });

  it('drops a name its job outlived (a crash between the state write and the removal) and keeps a running one', async () => {
    await listPossiblyRunningJobs(repositoryRoot);
    const finished = newJob('finished');
    const running = newJob('running');
    await updateJobState(repositoryRoot, finished.jobId, (state) => ({ ...state, status: 'done' }));
    writeFileSync(join(index(), finished.jobId), ''); // what the crash left behind

    expect((await listPossiblyRunningJobs(repositoryRoot)).map((job) => job.jobId)).toEqual([running.jobId]);
    expect(named()).toEqual(['.complete', running.jobId].sort());
  });
});
