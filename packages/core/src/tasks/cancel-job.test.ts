import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '@snodo/foundation';
import { afterEach, describe, expect, it } from 'vitest';
import { auditLogPath } from '../audit-trail/audit-paths.js';
import { createJobId, jobPaths, readJobState } from '../jobs/index.js';
import { runTask } from '../pipeline/run-task.js';
import {
  createPipelineFixture,
  mockRegistration,
  type PipelineFixture,
  testProtocol,
} from '../testing/pipeline-fixture.js';
import { approveJob } from './approve-job.js';
import { cancelJob } from './cancel-job.js';

// Cancelling goes through a request file the running job watches, never a signal to its process: these
// runs are in this very test process (as in an MCP server or a queue worker), which must live on.

const SLEEPER = `console.log('sleeper: started'); setTimeout(() => {}, 120000);`;

let fixture: PipelineFixture;
afterEach(() => fixture.cleanup());

function startSleepingJob(jobId?: string) {
  return runTask({
    cwd: fixture.root,
    env: fixture.env,
    actor: 'tester',
    task: 'sleep for minutes',
    coder: 'sleeper',
    model: 'mock/pass',
    coders: { registrations: [mockRegistration], defaultCoderId: 'mock', mockCoderId: 'mock' },
    ...(jobId === undefined ? {} : { jobId }),
  });
}

/** Polls the job's state until its coder process has started; its pid. */
async function coderStarted(jobId: string): Promise<number | undefined> {
  for (let tries = 0; tries < 600; tries += 1) {
    await sleep(50);
    try {
      const pid = readJobState(fixture.root, jobId).coderProcess?.pid;
      if (pid !== undefined) return pid;
    } catch {
      // Not created yet.
    }
  }
  return undefined;
}

describe('cancelJob', () => {
  it('stops a running coder in this process: the job ends cancelled with who, when and why, audited', async () => {
    fixture = createPipelineFixture({
      config: `coders:\n  sleeper:\n    command: [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(SLEEPER)}, "{prompt}"]\n`,
    });
    const jobId = createJobId();
    const handle = startSleepingJob(jobId);
    const drained = (async () => {
      for await (const _event of handle.events);
    })();
    const statePath = jobPaths(fixture.root, jobId).state;
    let coderPid: number | undefined;
    for (let tries = 0; coderPid === undefined && tries < 600; tries += 1) {
      await sleep(50);
      try {
        coderPid = readJobState(fixture.root, jobId).coderProcess?.pid;
      } catch {
        // Not created yet.
      }
    }
    expect(coderPid, `no coder started; state: ${statePath}`).toBeDefined();

    const { state, stopped } = await cancelJob({
      cwd: fixture.root,
      env: fixture.env,
      actor: 'ana',
      jobId,
      reason: 'wrong task',
    });
    expect(stopped).toBe(true);
    expect(state.status).toBe('cancelled');
    expect(state.summary).toMatch(/^Cancelled by ana at .+ \(wrong task\); the job is kept\.$/);
    expect(state.decisions).toEqual([
      expect.objectContaining({ action: 'cancel', by: 'ana', reason: 'wrong task' }),
    ]);
    const result = await handle.result;
    await drained;
    expect(result).toMatchObject({ jobId, status: 'cancelled', outcome: 'cancelled' });
    expect(isProcessAlive(coderPid as number)).toBe(false);
    // The request was used up: approving or merging the job later is not cancelled by it.
    expect(existsSync(join(jobPaths(fixture.root, jobId).directory, 'cancel-request.json'))).toBe(false);

    const events = readFileSync(auditLogPath(fixture.root), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { type: string; job?: string; actor: string; data: Record<string, unknown> },
      )
      .filter((event) => event.job === jobId);
    const cancel = events.find((event) => event.type === 'job-cancel');
    expect(cancel).toMatchObject({
      actor: 'ana',
      data: { by: 'ana', reason: 'wrong task', pid: process.pid },
    });
    expect(events.at(-1)).toMatchObject({ type: 'job-end', data: { status: 'cancelled' } });
    expect((await fixture.verifyAudit()).ok).toBe(true);

    await expect(cancelJob({ cwd: fixture.root, env: fixture.env, jobId })).rejects.toMatchObject({
      code: 'JOB_ACTION_REFUSED',
      message: expect.stringContaining(`Cannot cancel job ${jobId}: it is not running (it is cancelled`),
    });
  });

  it('stops the coder an approval started: the approval ends cancelled and the request is used up', async () => {
    fixture = createPipelineFixture({
      // The pre-execute judge warns: the job escalates before its coder runs, and approving it runs the coder.
      protocol: testProtocol.replace(
        '  - validator_id: task-review\n',
        '  - validator_id: task-review\n    model: mock/warn\n',
      ),
      config: `coders:\n  sleeper:\n    command: [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(SLEEPER)}, "{prompt}"]\n`,
    });
    const escalated = await startSleepingJob().result;
    expect(escalated).toMatchObject({ outcome: 'escalated', attempts: 0 });

    const approving = approveJob({
      cwd: fixture.root,
      env: fixture.env,
      actor: 'reviewer',
      jobId: escalated.jobId,
      reason: 'the task is fine',
      coders: { registrations: [mockRegistration], defaultCoderId: 'mock', mockCoderId: 'mock' },
    });
    const coderPid = await coderStarted(escalated.jobId);
    expect(coderPid, 'the approval started no coder').toBeDefined();

    const { state, stopped } = await cancelJob({
      cwd: fixture.root,
      env: fixture.env,
      actor: 'ana',
      jobId: escalated.jobId,
    });
    expect(stopped).toBe(true);
    expect(state.status).toBe('cancelled');
    await expect(approving).resolves.toMatchObject({ status: 'cancelled', outcome: 'cancelled' });
    expect(isProcessAlive(coderPid as number)).toBe(false);
    expect(existsSync(join(jobPaths(fixture.root, escalated.jobId).directory, 'cancel-request.json'))).toBe(
      false,
    );
    expect(readJobState(fixture.root, escalated.jobId).decisions.map((decision) => decision.action)).toEqual([
      'approve',
      'cancel',
    ]);
    expect((await fixture.verifyAudit()).ok).toBe(true);
  });

  it('runTask takes a reserved id once: a directory made for it is fine, a bad or used id is refused', async () => {
    fixture = createPipelineFixture();
    const jobId = createJobId();
    mkdirSync(jobPaths(fixture.root, jobId).directory, { recursive: true });
    const first = await fixture.run({ task: 'add a file', mock: true, jobId });
    expect(first.result).toMatchObject({ jobId, status: 'done', outcome: 'merged' });

    const again = runTask({
      cwd: fixture.root,
      env: fixture.env,
      task: 'add another file',
      mock: true,
      jobId,
      coders: { registrations: [mockRegistration], defaultCoderId: 'mock', mockCoderId: 'mock' },
    });
    await expect(again.result).rejects.toMatchObject({
      code: 'JOB_ID_UNUSABLE',
      message: expect.stringContaining('a job with this id already exists'),
    });
    expect(readJobState(fixture.root, jobId).task).toBe('add a file');

    const malformed = runTask({
      cwd: fixture.root,
      env: fixture.env,
      task: 'add a file',
      mock: true,
      jobId: '../escape',
      coders: { registrations: [mockRegistration], defaultCoderId: 'mock', mockCoderId: 'mock' },
    });
    await expect(malformed.result).rejects.toMatchObject({ code: 'JOB_ID_UNUSABLE' });
  });
});
