import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cancelQueuedJob } from './cancel-queued-job.js';
import { enqueueLanding } from './enqueue-landing.js';
import type { LandingJobResult } from './land-queued-task.js';
import type { QueueConnection } from './queue-connection.js';
import {
  LANDING_QUEUE,
  type LandingJobData,
  landingJobId,
  TASK_QUEUE,
  type TaskJobData,
  type TaskJobResult,
} from './queue-jobs.js';
import { readQueuedJob } from './read-queued-job.js';
import { type RunningWorker, startWorker } from './start-worker.js';
import { REDIS_SERVER } from './testing/redis-server.js';
import { useRedisTestbed } from './testing/redis-testbed.js';

const slow = { timeout: 120_000 };

describe.skipIf(REDIS_SERVER === undefined)('snodo job cancel of a queue job waiting to land', () => {
  const testbed = useRedisTestbed('snodo-cancel-landing', { gitIdentity: true });
  let directory: string;
  let connection: QueueConnection;
  beforeAll(() => {
    ({ directory, connection } = testbed);
  });

  const git = (cwd: string, args: string[]) =>
    execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

  /** A bare shared remote whose main holds `files`, and worker w1's clone of it, at the base commit. */
  function sharedRemote(name: string, files: Record<string, string>) {
    const remote = join(directory, `${name}.git`);
    git(directory, ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
    const clone = join(directory, `${name}-w1`);
    git(directory, ['clone', '--quiet', remote, clone]);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(clone, path, '..'), { recursive: true });
      writeFileSync(join(clone, path), text);
      git(clone, ['add', path]);
    }
    git(clone, ['commit', '--quiet', '-m', 'initial']);
    git(clone, ['push', '--quiet', 'origin', 'HEAD:main']);
    return { remote, clone, base: git(clone, ['rev-parse', 'HEAD']) };
  }

  /**
   * A task a worker finished as `runQueuedTask` does: its commit (adding `<jobId>.txt`) pushed to
   * refs/snodo/jobs/<jobId>, the task job completed with status `landing`, its landing job waiting.
   */
  async function finishedTask(
    at: { clone: string; base: string },
    jobId: string,
    mode?: string,
  ): Promise<void> {
    git(at.clone, ['checkout', '--quiet', '--detach', at.base]);
    writeFileSync(join(at.clone, `${jobId}.txt`), `${jobId}\n`);
    git(at.clone, ['add', `${jobId}.txt`]);
    git(at.clone, ['commit', '--quiet', '-m', `task ${jobId}`]);
    const taskCommit = git(at.clone, ['rev-parse', 'HEAD']);
    git(at.clone, ['push', '--quiet', 'origin', `HEAD:refs/snodo/jobs/${jobId}`]);
    git(at.clone, ['checkout', '--quiet', '--detach', at.base]);
    const data: TaskJobData = {
      task: `Add ${jobId}.txt`,
      base: 'main',
      baseCommit: at.base,
      protocolCommit: at.base,
      protocolBlob: 'b'.repeat(40),
      options: {},
      submittedBy: 'tester',
      submittedAt: '2026-12-02T00:00:00.000Z',
    };
    const result: TaskJobResult = {
      status: 'landing',
      outcome: 'branch_kept',
      summary: 'Added the file.',
      workerId: 'w0',
      localJobId: `j_${jobId}`,
      taskCommit,
      taskBase: at.base,
      ...(mode === undefined ? {} : { mode }),
    };
    const tasks = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
    const landings = connection.createQueue<LandingJobData>(LANDING_QUEUE);
    await tasks.add('task', data, { jobId, removeOnComplete: false, removeOnFail: false });
    await new Promise<void>((resolve) => {
      const worker = connection.createWorker<TaskJobData, TaskJobResult>(TASK_QUEUE, async () => result, {
        concurrency: 1,
      });
      worker.on('completed', () => void worker.close().then(resolve));
    });
    await enqueueLanding(landings, {
      jobId,
      base: 'main',
      taskCommit,
      taskBase: at.base,
      task: data.task,
      ...(mode === undefined ? {} : { mode }),
    });
    await Promise.all([tasks.close(), landings.close()]);
  }

  function worker(clone: string, name: string, lines: string[], onLine?: (line: string) => void) {
    const snodoHome = join(directory, `${name}-home`);
    mkdirSync(snodoHome, { mode: 0o700 });
    return startWorker({
      connection,
      clone,
      snodoHome,
      env: process.env,
      coders: { registrations: [], defaultCoderId: 'none', mockCoderId: 'none' },
      workerId: 'w1',
      log: () => (jobId, message) => {
        const line = `${jobId ?? '-'} ${message}`;
        lines.push(line);
        onLine?.(line);
      },
    });
  }

  /** Each landing job's return value, once all have one. */
  async function landed(jobIds: readonly string[]): Promise<Array<LandingJobResult | undefined>> {
    const landings = connection.createQueue<LandingJobData, LandingJobResult>(LANDING_QUEUE);
    try {
      let results: Array<LandingJobResult | undefined> = [];
      for (let waited = 0; waited < 100_000; waited += 200) {
        const jobs = await Promise.all(jobIds.map((jobId) => landings.getJob(landingJobId(jobId))));
        results = jobs.map((job) => job?.returnvalue ?? undefined);
        if (results.every((result) => result !== undefined && result !== null)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return results;
    } finally {
      await landings.close();
    }
  }

  /**
   * What `snodo job status` reads for the job (`readQueuedJob`), the task job's `cancelRequested`, and
   * whether its landing job is still in the landing queue.
   */
  async function queueState(jobId: string) {
    const tasks = connection.createQueue<TaskJobData, TaskJobResult>(TASK_QUEUE);
    const landings = connection.createQueue<LandingJobData>(LANDING_QUEUE);
    try {
      const task = await tasks.getJob(jobId);
      const landing = await landings.getJob(landingJobId(jobId));
      const { status } = await readQueuedJob({ connection, jobId });
      return { status, cancelRequested: task?.data.cancelRequested, landingJob: landing !== undefined };
    } finally {
      await Promise.all([tasks.close(), landings.close()]);
    }
  }

  /**
   * A shared remote whose protocol's `code` mode has a command gate that holds every re-check until the
   * file `release` exists (at most a minute): a real gate of a real re-check, not a stub in the lander, so
   * the test can act while a train is between its collection and its push.
   */
  function heldTrain(name: string) {
    const release = join(directory, `${name}-release`);
    const protocol = `protocol_id: hold
name: Hold protocol
initial_mode: code
execution:
  sandbox: 'off'
modes:
  - mode_id: code
    name: Code
    tools: [edit]
    validators: [hold]
validators:
  - validator_id: hold
    validator_type: quality
    evaluation_phase: post_execute
    tooling:
      test_command: 'i=0; while [ ! -f ${release} ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done'
disagreement_policy: unanimous
`;
    const at = sharedRemote(name, { 'README.md': 'hello\n', '.snodo/protocol.yml': protocol });
    return { at, release };
  }

  /** Someone else lands on main: the base moved, so a train is re-checked. */
  /** The remote base holds the files of `landed` and nothing of the cancelled job, neither file nor landing. */
  function expectOnBase(remote: string, landed: readonly string[], cancelled: string): void {
    const tree = git(remote, ['ls-tree', '--name-only', 'main']).split('\n');
    expect(tree).toEqual(expect.arrayContaining([...landed]));
    expect(tree).not.toContain(`${cancelled}.txt`);
    expect(git(remote, ['log', '--format=%B', 'main'])).not.toContain(`Snodo-Job: ${cancelled}`);
  }

  function moveBase(at: { remote: string }, name: string): void {
    const other = join(directory, `${name}-other`);
    git(directory, ['clone', '--quiet', at.remote, other]);
    writeFileSync(join(other, 'other.txt'), 'other\n');
    git(other, ['add', 'other.txt']);
    git(other, ['commit', '--quiet', '-m', 'someone else']);
    git(other, ['push', '--quiet', 'origin', 'HEAD:main']);
  }

  it(
    'a finished task whose landing waits is cancelled before it lands: its landing job is removed, the task ' +
      'reads cancelled, and a lander started later lands the others but nothing of it; cancelling a landed ' +
      'job is refused with how to revert it',
    slow,
    async () => {
      const at = sharedRemote('waiting', { 'README.md': 'hello\n' });
      await finishedTask(at, 'q_unwanted');

      const cancelled = await cancelQueuedJob({ connection, jobId: 'q_unwanted', actor: 'alice' });

      expect(cancelled).toEqual({ jobId: 'q_unwanted', action: 'landing-cancelled' });
      expect(await queueState('q_unwanted')).toEqual({
        status: 'cancelled',
        cancelRequested: { by: 'alice', at: expect.any(String) },
        landingJob: false,
      });
      // Asking again says the same (the landing job is gone for good).
      expect(await cancelQueuedJob({ connection, jobId: 'q_unwanted', actor: 'alice' })).toMatchObject({
        action: 'landing-cancelled',
      });

      // A lander comes: it lands a later job, and nothing of the cancelled one.
      await finishedTask(at, 'q_wanted');
      const lines: string[] = [];
      const running = await worker(at.clone, 'waiting-w1', lines);
      let results: Array<LandingJobResult | undefined>;
      try {
        results = await landed(['q_wanted']);
      } finally {
        await running.close();
      }
      expect(
        results.map((result) => result?.status),
        lines.join('\n'),
      ).toEqual(['landed']);
      expectOnBase(at.remote, ['q_wanted.txt'], 'q_unwanted');

      // (c) The landed one cannot be cancelled any more: the refusal names the landing commit and the revert.
      const tip = git(at.remote, ['rev-parse', 'main']);
      await expect(cancelQueuedJob({ connection, jobId: 'q_wanted', actor: 'alice' })).rejects.toMatchObject({
        code: 'QUEUE_JOB_STATE',
        message: expect.stringMatching(
          new RegExp(`landed on main as ${tip.slice(0, 12)} by w1; .*git revert -m 1 ${tip}`),
        ),
      });
      expect(await queueState('q_wanted')).toEqual({
        status: 'done',
        cancelRequested: undefined,
        landingJob: true,
      });
    },
  );

  it(
    'a rider cancelled after the lander took it into its train (while the train is re-checked) is dropped ' +
      'before the push: the others land in one train, nothing of it reaches the base, and the cancel says ' +
      'it was in time',
    slow,
    async () => {
      const { at, release } = heldTrain('train');
      const jobIds = ['q_first', 'q_cancelled', 'q_third'];
      for (const jobId of jobIds) await finishedTask(at, jobId, 'code');
      moveBase(at, 'train');

      let cancel: ReturnType<typeof cancelQueuedJob> | undefined;
      const lines: string[] = [];
      const running: RunningWorker = await worker(at.clone, 'train-w1', lines, (line) => {
        if (
          cancel === undefined &&
          line.includes("re-running the code mode's command gates on the train of 3")
        ) {
          cancel = cancelQueuedJob({ connection, jobId: 'q_cancelled', actor: 'alice', waitMs: 60_000 });
        }
      });
      let results: Array<LandingJobResult | undefined>;
      try {
        // Once the cancel has removed the rider, the gate lets the re-check finish.
        for (let waited = 0; waited < 60_000; waited += 100) {
          if (cancel !== undefined && !(await queueState('q_cancelled')).landingJob) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(cancel, lines.join('\n')).toBeDefined();
        writeFileSync(release, '');
        results = await landed(['q_first', 'q_third']);
      } finally {
        if (!existsSync(release)) writeFileSync(release, '');
        await running.close();
      }

      expect(await cancel).toEqual({ jobId: 'q_cancelled', action: 'landing-cancelled' });
      expect(
        results.map((result) => result?.status),
        lines.join('\n'),
      ).toEqual(['landed', 'landed']);
      expect(results[1]?.trainId).toBe(results[0]?.trainId);
      expect(results[0]?.landedRiders?.map((rider) => rider.jobId)).toEqual(['q_third']);
      expect(lines.join('\n')).toContain('q_cancelled dropped from the train before its push');
      expectOnBase(at.remote, ['q_first.txt', 'q_third.txt', 'other.txt'], 'q_cancelled');
      expect(await queueState('q_cancelled')).toEqual({
        status: 'cancelled',
        cancelRequested: { by: 'alice', at: expect.any(String) },
        landingJob: false,
      });
    },
  );

  it(
    'the landing job a lander holds is marked, not removed: the lander drops it before its push, its rider ' +
      'lands, and the cancel waits for that answer and reports it',
    slow,
    async () => {
      const { at, release } = heldTrain('leader');
      for (const jobId of ['q_lead', 'q_rider']) await finishedTask(at, jobId, 'code');
      moveBase(at, 'leader');

      let cancel: ReturnType<typeof cancelQueuedJob> | undefined;
      const lines: string[] = [];
      const running = await worker(at.clone, 'leader-w1', lines, (line) => {
        if (
          cancel === undefined &&
          line.includes("re-running the code mode's command gates on the train of 2")
        ) {
          cancel = cancelQueuedJob({ connection, jobId: 'q_lead', actor: 'bob', waitMs: 60_000 });
        }
      });
      const landings = connection.createQueue<LandingJobData, LandingJobResult>(LANDING_QUEUE);
      let results: Array<LandingJobResult | undefined>;
      try {
        for (let waited = 0; waited < 60_000; waited += 100) {
          const lead = await landings.getJob(landingJobId('q_lead'));
          if (lead?.data.cancelRequested !== undefined) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(cancel, lines.join('\n')).toBeDefined();
        writeFileSync(release, '');
        results = await landed(['q_rider']);
      } finally {
        if (!existsSync(release)) writeFileSync(release, '');
        await running.close();
        await landings.close();
      }

      expect(await cancel).toEqual({ jobId: 'q_lead', action: 'landing-cancelled' });
      expect(
        results.map((result) => result?.status),
        lines.join('\n'),
      ).toEqual(['landed']);
      expectOnBase(at.remote, ['q_rider.txt'], 'q_lead');
      // Its landing job (kept, withdrawn) is gone, so the task reads cancelled like a removed one.
      expect(await queueState('q_lead')).toEqual({
        status: 'cancelled',
        cancelRequested: { by: 'bob', at: expect.any(String) },
        landingJob: false,
      });
    },
  );
});
