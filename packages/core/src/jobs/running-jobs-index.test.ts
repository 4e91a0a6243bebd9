import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobPaths, snodoDirectory } from './job-paths.js';
import { createJob, readJobState, updateJobState } from './job-store.js';
import { reconcileInterruptedJobs } from './reconcile-jobs.js';
import { listPossiblyRunningJobs } from './running-jobs-index.js';

let repositoryRoot: string;
beforeEach(() => {
  repositoryRoot = mkdtempSync(join(tmpdir(), 'snodo-running-index-'));
});
afterEach(() => rmSync(repositoryRoot, { recursive: true, force: true }));

const index = (): string => join(snodoDirectory(repositoryRoot), 'running-jobs');
const named = (): string[] =>
  readdirSync(index())
    .filter((name) => name !== '.gitignore')
    .sort();
const newJob = (task: string) => createJob({ repositoryRoot, task, cwd: '/', requestOptions: {} });

/** Leaves `jobId` `running` under a process that has exited, as a crash does. */
async function crash(jobId: string): Promise<void> {
  const pid = deadPid();
  await updateJobState(repositoryRoot, jobId, (state) => {
    state.process.pid = pid;
    state.process.startTimeMs = undefined;
    return state;
  });
}

/** A pid no process has any more: its process has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid as number;

/** A job of an earlier snodo, its process gone: its files only, nothing in the index. */
function plantJobWithoutIndex(jobId: string, status: 'running' | 'done', pid = deadPid()): void {
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
        pid,
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
    // Finished jobs of the history: a start that read every job would list them too.
    const gone = deadPid();
    for (let index = 0; index < 2_000; index += 1) {
      plantJobWithoutIndex(`j_finished${String(index).padStart(6, '0')}`, 'done', gone);
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

  it('drops a name its job outlived (a crash between the state write and the removal, a removed job) and keeps a running one', async () => {
    await listPossiblyRunningJobs(repositoryRoot);
    const finished = newJob('finished');
    const removed = newJob('removed');
    const running = newJob('running');
    await updateJobState(repositoryRoot, finished.jobId, (state) => ({ ...state, status: 'done' }));
    writeFileSync(join(index(), finished.jobId), ''); // what the crash left behind
    rmSync(removed.paths.directory, { recursive: true });

    expect((await listPossiblyRunningJobs(repositoryRoot)).map((job) => job.jobId)).toEqual([running.jobId]);
    expect(named()).toEqual(['.complete', running.jobId].sort());
  });

  it('keeps itself out of git status, whichever command makes it first', async () => {
    spawnSync('git', ['init', '-q', repositoryRoot]);
    newJob('first');
    expect(
      spawnSync('git', ['status', '--porcelain', '--', '.snodo/running-jobs'], {
        cwd: repositoryRoot,
        encoding: 'utf8',
      }).stdout,
    ).toBe('');
    expect(readdirSync(index())).toContain('.gitignore');
  });
});
