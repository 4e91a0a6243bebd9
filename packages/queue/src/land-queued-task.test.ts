import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueLanding } from './enqueue-landing.js';
import type { LandingJobResult } from './land-queued-task.js';
import type { QueueConnection } from './queue-connection.js';
import { LANDING_QUEUE, type LandingJobData, landingJobId } from './queue-jobs.js';
import { startWorker } from './start-worker.js';
import { REDIS_SERVER } from './testing/redis-server.js';
import { useRedisTestbed } from './testing/redis-testbed.js';

describe.skipIf(REDIS_SERVER === undefined)('the landing queue on Redis', () => {
  const testbed = useRedisTestbed('snodo-train', { gitIdentity: true });
  let directory: string;
  let connection: QueueConnection;
  beforeAll(() => {
    ({ directory, connection } = testbed);
  });

  it('one lander takes the landings waiting behind its own into one train: one push lands all three, each ' +
    'with its own landing commit, and each rider job returns the outcome the train recorded', {
    timeout: 120_000,
  }, async () => {
    const git = (cwd: string, args: string[]) =>
      execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    const remote = join(directory, 'remote.git');
    git(directory, ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
    const clone = join(directory, 'w1');
    git(directory, ['clone', '--quiet', remote, clone]);
    writeFileSync(join(clone, 'README.md'), 'hello\n');
    git(clone, ['add', 'README.md']);
    git(clone, ['commit', '--quiet', '-m', 'initial']);
    git(clone, ['push', '--quiet', 'origin', 'HEAD:main']);
    const base = git(clone, ['rev-parse', 'HEAD']);
    // Three finished tasks on the same base, pushed as a worker pushes them, their landings all waiting.
    const landings = connection.createQueue<LandingJobData, LandingJobResult>(LANDING_QUEUE);
    const jobIds = ['q_one', 'q_two', 'q_three'];
    for (const jobId of jobIds) {
      git(clone, ['checkout', '--quiet', '--detach', base]);
      writeFileSync(join(clone, `${jobId}.txt`), `${jobId}\n`);
      git(clone, ['add', `${jobId}.txt`]);
      git(clone, ['commit', '--quiet', '-m', `task ${jobId}`]);
      const taskCommit = git(clone, ['rev-parse', 'HEAD']);
      git(clone, ['push', '--quiet', 'origin', `HEAD:refs/snodo/jobs/${jobId}`]);
      await enqueueLanding(landings, { jobId, base: 'main', taskCommit, taskBase: base });
    }
    git(clone, ['checkout', '--quiet', '--detach', base]);
    const snodoHome = join(directory, 'w1-home');
    mkdirSync(snodoHome, { mode: 0o700 });
    const lines: string[] = [];
    const worker = await startWorker({
      connection,
      clone,
      snodoHome,
      env: process.env,
      coders: { registrations: [], defaultCoderId: 'none', mockCoderId: 'none' },
      workerId: 'w1',
      log: () => (jobId, message) => lines.push(`${jobId ?? '-'} ${message}`),
    });
    let results: Array<LandingJobResult | undefined> = [];
    try {
      for (let waited = 0; waited < 100_000; waited += 200) {
        const jobs = await Promise.all(jobIds.map((jobId) => landings.getJob(landingJobId(jobId))));
        results = jobs.map((job) => job?.returnvalue ?? undefined);
        if (results.every((result) => result !== undefined && result !== null)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await worker.close();
      await landings.close();
    }

    expect(
      results.map((result) => result?.status),
      lines.join('\n'),
    ).toEqual(['landed', 'landed', 'landed']);
    const trainIds = new Set(results.map((result) => result?.trainId));
    expect(trainIds.size).toBe(1);
    expect([...trainIds][0]).toMatch(/^t_/);
    expect(lines.join('\n')).toContain('in a train of 3');
    // One push: the lander's chain ref has one snapshot; the base has a landing commit per job.
    expect(git(remote, ['rev-list', '--count', 'refs/snodo/audit/w1'])).toBe('1');
    const messages = git(remote, ['log', '--first-parent', '--max-count=3', '--format=%B', 'main']);
    for (const jobId of jobIds) expect(messages).toContain(`Snodo-Job: ${jobId}`);
    expect(git(remote, ['for-each-ref', 'refs/snodo/jobs/'])).toBe('');
  });
});
