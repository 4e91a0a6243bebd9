import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobNotFoundError } from '../errors.js';
import { isJobId } from './job-id.js';
import { createJob, listJobs, readJobState, readJobTask, updateJobState } from './job-store.js';
import { reconcileInterruptedJobs } from './reconcile-jobs.js';

let repositoryRoot: string;
beforeEach(() => {
  repositoryRoot = mkdtempSync(join(tmpdir(), 'snodo-jobs-'));
});
afterEach(() => rmSync(repositoryRoot, { recursive: true, force: true }));

describe('job store', () => {
  it('creates a job directory with task.json, state.json and gates/', () => {
    const job = createJob({ repositoryRoot, task: 'add a README', cwd: repositoryRoot, requestOptions: {} });
    expect(isJobId(job.jobId)).toBe(true);
    expect(readdirSync(job.paths.directory).sort()).toEqual(['gates', 'state.json', 'task.json']);
    expect(readJobState(repositoryRoot, job.jobId)).toMatchObject({
      status: 'running',
      task: 'add a README',
    });
    expect(readJobTask(repositoryRoot, job.jobId).task).toBe('add a README');
    expect(statSync(job.paths.state).isFile()).toBe(true);
  });

  it('gives every job its own id', () => {
    const ids = new Set(
      Array.from(
        { length: 50 },
        () => createJob({ repositoryRoot, task: 't', cwd: '/', requestOptions: {} }).jobId,
      ),
    );
    expect(ids.size).toBe(50);
  });

  it('loses no update when many writers update one state concurrently', async () => {
    const job = createJob({ repositoryRoot, task: 't', cwd: '/', requestOptions: {} });
    await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        updateJobState(repositoryRoot, job.jobId, (state) => {
          state.attempts.push({ attempt: index + 1, status: 'no-changes', changedFiles: [], durationMs: 0 });
          return state;
        }),
      ),
    );
    const state = readJobState(repositoryRoot, job.jobId);
    expect(state.attempts).toHaveLength(25);
    expect(
      readdirSync(job.paths.directory).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock')),
    ).toEqual([]);
  });

  it('reports an unknown or malformed job id as JOB_NOT_FOUND, never as a path', () => {
    expect(() => readJobState(repositoryRoot, 'j_doesnotexist')).toThrow(JobNotFoundError);
    const error = (() => {
      try {
        readJobState(repositoryRoot, '../../etc');
      } catch (caught) {
        return caught;
      }
    })();
    expect(JobNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('snodo task list');
  });

  it('lists jobs newest first', async () => {
    const first = createJob({
      repositoryRoot,
      task: 'one',
      cwd: '/',
      requestOptions: {},
      now: new Date(1_000),
    });
    const second = createJob({
      repositoryRoot,
      task: 'two',
      cwd: '/',
      requestOptions: {},
      now: new Date(2_000),
    });
    expect(listJobs(repositoryRoot).map((job) => job.jobId)).toEqual([second.jobId, first.jobId]);
  });
});

describe('reconcileInterruptedJobs', () => {
  it('marks a job whose process is gone as interrupted and leaves live ones alone', async () => {
    const live = createJob({ repositoryRoot, task: 'live', cwd: '/', requestOptions: {} });
    const crashed = createJob({ repositoryRoot, task: 'crashed', cwd: '/', requestOptions: {} });
    const finishedChild = spawnSync(process.execPath, ['-e', '']);
    const deadPid = finishedChild.pid as number;
    await updateJobState(repositoryRoot, crashed.jobId, (state) => {
      state.process.pid = deadPid;
      state.process.startTimeMs = undefined;
      return state;
    });
    // A job "owned" by this test process must not be touched: its process is alive.
    await updateJobState(repositoryRoot, live.jobId, (state) => {
      state.process.pid = process.ppid;
      state.process.startTimeMs = undefined;
      return state;
    });

    const interrupted = await reconcileInterruptedJobs(repositoryRoot);

    expect(interrupted.map((job) => job.jobId)).toEqual([crashed.jobId]);
    expect(readJobState(repositoryRoot, crashed.jobId)).toMatchObject({
      status: 'interrupted',
      outcome: 'interrupted',
    });
    expect(readJobState(repositoryRoot, live.jobId).status).toBe('running');
  });

  it('treats a reused pid with a different start time as gone', async () => {
    const job = createJob({ repositoryRoot, task: 'reused', cwd: '/', requestOptions: {} });
    await updateJobState(repositoryRoot, job.jobId, (state) => {
      state.process.pid = process.ppid;
      state.process.startTimeMs = 1_000; // 1970: certainly not when the parent process started
      return state;
    });
    const interrupted = await reconcileInterruptedJobs(repositoryRoot);
    expect(interrupted.map((entry) => entry.jobId)).toEqual([job.jobId]);
  });
});
